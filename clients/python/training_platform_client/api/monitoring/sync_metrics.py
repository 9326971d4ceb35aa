from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.sync_out import SyncOut
from ...types import Response


def _get_kwargs(
    job: str,
) -> dict[str, Any]:
    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/monitoring/{job}/metrics/sync".format(
            job=quote(str(job), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | SyncOut | None:
    if response.status_code == 200:
        response_200 = SyncOut.from_dict(response.json())

        return response_200

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | SyncOut]:
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
) -> Response[ErrorBody | SyncOut]:
    """Sync Metrics

     Ingest now what the job's metrics file holds beyond what is stored (idempotent).

    Args:
        job (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SyncOut]
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
) -> ErrorBody | SyncOut | None:
    """Sync Metrics

     Ingest now what the job's metrics file holds beyond what is stored (idempotent).

    Args:
        job (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SyncOut
    """

    return sync_detailed(
        job=job,
        client=client,
    ).parsed


async def asyncio_detailed(
    job: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | SyncOut]:
    """Sync Metrics

     Ingest now what the job's metrics file holds beyond what is stored (idempotent).

    Args:
        job (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SyncOut]
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
) -> ErrorBody | SyncOut | None:
    """Sync Metrics

     Ingest now what the job's metrics file holds beyond what is stored (idempotent).

    Args:
        job (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SyncOut
    """

    return (
        await asyncio_detailed(
            job=job,
            client=client,
        )
    ).parsed
