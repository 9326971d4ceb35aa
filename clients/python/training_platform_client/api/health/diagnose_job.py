from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.health_read import HealthRead
from ...types import Response


def _get_kwargs(
    job: str,
) -> dict[str, Any]:
    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/jobs/{job}/diagnose".format(
            job=quote(str(job), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | HealthRead | None:
    if response.status_code == 200:
        response_200 = HealthRead.from_dict(response.json())

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
) -> Response[ErrorBody | HealthRead]:
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
) -> Response[ErrorBody | HealthRead]:
    """Diagnose Job

     Run every detector over the whole job (its stored metrics and its log) again; its findings become
    what
    this pass found. Running it twice changes nothing.

    Args:
        job (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | HealthRead]
    """

    kwargs = _get_kwargs(
        job=job,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job: str,
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | HealthRead | None:
    """Diagnose Job

     Run every detector over the whole job (its stored metrics and its log) again; its findings become
    what
    this pass found. Running it twice changes nothing.

    Args:
        job (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | HealthRead
    """

    return sync_detailed(
        job=job,
        client=client,
    ).parsed


async def asyncio_detailed(
    job: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | HealthRead]:
    """Diagnose Job

     Run every detector over the whole job (its stored metrics and its log) again; its findings become
    what
    this pass found. Running it twice changes nothing.

    Args:
        job (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | HealthRead]
    """

    kwargs = _get_kwargs(
        job=job,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job: str,
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | HealthRead | None:
    """Diagnose Job

     Run every detector over the whole job (its stored metrics and its log) again; its findings become
    what
    this pass found. Running it twice changes nothing.

    Args:
        job (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | HealthRead
    """

    return (
        await asyncio_detailed(
            job=job,
            client=client,
        )
    ).parsed
