from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.job_read import JobRead
from ...types import UNSET, Response, Unset


def _get_kwargs(
    job: str,
    *,
    learning_rate: float | None | Unset = UNSET,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    json_learning_rate: float | None | Unset
    if isinstance(learning_rate, Unset):
        json_learning_rate = UNSET
    else:
        json_learning_rate = learning_rate
    params["learning_rate"] = json_learning_rate

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/jobs/{job}/resume".format(
            job=quote(str(job), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | JobRead | None:
    if response.status_code == 200:
        response_200 = JobRead.from_dict(response.json())

        return response_200

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | JobRead]:
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
    learning_rate: float | None | Unset = UNSET,
) -> Response[ErrorBody | JobRead]:
    """Resume Job

     From the latest complete checkpoint; queued, or refused, as a start is.

    Args:
        job (str):
        learning_rate (float | None | Unset): Resume with this learning rate (TRL jobs; after a
            NaN pause, say).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | JobRead]
    """

    kwargs = _get_kwargs(
        job=job,
        learning_rate=learning_rate,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    learning_rate: float | None | Unset = UNSET,
) -> ErrorBody | JobRead | None:
    """Resume Job

     From the latest complete checkpoint; queued, or refused, as a start is.

    Args:
        job (str):
        learning_rate (float | None | Unset): Resume with this learning rate (TRL jobs; after a
            NaN pause, say).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | JobRead
    """

    return sync_detailed(
        job=job,
        client=client,
        learning_rate=learning_rate,
    ).parsed


async def asyncio_detailed(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    learning_rate: float | None | Unset = UNSET,
) -> Response[ErrorBody | JobRead]:
    """Resume Job

     From the latest complete checkpoint; queued, or refused, as a start is.

    Args:
        job (str):
        learning_rate (float | None | Unset): Resume with this learning rate (TRL jobs; after a
            NaN pause, say).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | JobRead]
    """

    kwargs = _get_kwargs(
        job=job,
        learning_rate=learning_rate,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    learning_rate: float | None | Unset = UNSET,
) -> ErrorBody | JobRead | None:
    """Resume Job

     From the latest complete checkpoint; queued, or refused, as a start is.

    Args:
        job (str):
        learning_rate (float | None | Unset): Resume with this learning rate (TRL jobs; after a
            NaN pause, say).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | JobRead
    """

    return (
        await asyncio_detailed(
            job=job,
            client=client,
            learning_rate=learning_rate,
        )
    ).parsed
