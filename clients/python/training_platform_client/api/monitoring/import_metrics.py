from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.import_out import ImportOut
from ...types import UNSET, Response


def _get_kwargs(
    job: str,
    *,
    filename: str,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    params["filename"] = filename

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/monitoring/{job}/metrics/import".format(
            job=quote(str(job), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | ImportOut | None:
    if response.status_code == 200:
        response_200 = ImportOut.from_dict(response.json())

        return response_200

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | ImportOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    filename: str,
) -> Response[ErrorBody | ImportOut]:
    """Import Metrics

     The request body is a metrics file (the platform's JSON lines, verl's file logger or verl's console
    output), read into the job; an unknown job name makes an external job. Sending it again reads only
    what is
    new (or rewritten).

    Args:
        job (str):
        filename (str): The file's name; it is kept under this name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ImportOut]
    """

    kwargs = _get_kwargs(
        job=job,
        filename=filename,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    filename: str,
) -> ErrorBody | ImportOut | None:
    """Import Metrics

     The request body is a metrics file (the platform's JSON lines, verl's file logger or verl's console
    output), read into the job; an unknown job name makes an external job. Sending it again reads only
    what is
    new (or rewritten).

    Args:
        job (str):
        filename (str): The file's name; it is kept under this name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ImportOut
    """

    return sync_detailed(
        job=job,
        client=client,
        filename=filename,
    ).parsed


async def asyncio_detailed(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    filename: str,
) -> Response[ErrorBody | ImportOut]:
    """Import Metrics

     The request body is a metrics file (the platform's JSON lines, verl's file logger or verl's console
    output), read into the job; an unknown job name makes an external job. Sending it again reads only
    what is
    new (or rewritten).

    Args:
        job (str):
        filename (str): The file's name; it is kept under this name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ImportOut]
    """

    kwargs = _get_kwargs(
        job=job,
        filename=filename,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    filename: str,
) -> ErrorBody | ImportOut | None:
    """Import Metrics

     The request body is a metrics file (the platform's JSON lines, verl's file logger or verl's console
    output), read into the job; an unknown job name makes an external job. Sending it again reads only
    what is
    new (or rewritten).

    Args:
        job (str):
        filename (str): The file's name; it is kept under this name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ImportOut
    """

    return (
        await asyncio_detailed(
            job=job,
            client=client,
            filename=filename,
        )
    ).parsed
