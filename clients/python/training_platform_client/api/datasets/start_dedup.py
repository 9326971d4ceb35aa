from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.dedup_request import DedupRequest
from ...models.error_body import ErrorBody
from ...models.task_read import TaskRead
from ...types import Response


def _get_kwargs(
    dataset: str,
    *,
    body: DedupRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/datasets/{dataset}/dedup".format(
            dataset=quote(str(dataset), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | TaskRead | None:
    if response.status_code == 202:
        response_202 = TaskRead.from_dict(response.json())

        return response_202

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | TaskRead]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    dataset: str,
    *,
    client: AuthenticatedClient | Client,
    body: DedupRequest,
) -> Response[ErrorBody | TaskRead]:
    """Start Dedup

     Keeps one row per duplicate group and writes the rest as a new version of the dataset.

    Args:
        dataset (str):
        body (DedupRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | TaskRead]
    """

    kwargs = _get_kwargs(
        dataset=dataset,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    dataset: str,
    *,
    client: AuthenticatedClient | Client,
    body: DedupRequest,
) -> ErrorBody | TaskRead | None:
    """Start Dedup

     Keeps one row per duplicate group and writes the rest as a new version of the dataset.

    Args:
        dataset (str):
        body (DedupRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | TaskRead
    """

    return sync_detailed(
        dataset=dataset,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    dataset: str,
    *,
    client: AuthenticatedClient | Client,
    body: DedupRequest,
) -> Response[ErrorBody | TaskRead]:
    """Start Dedup

     Keeps one row per duplicate group and writes the rest as a new version of the dataset.

    Args:
        dataset (str):
        body (DedupRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | TaskRead]
    """

    kwargs = _get_kwargs(
        dataset=dataset,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    dataset: str,
    *,
    client: AuthenticatedClient | Client,
    body: DedupRequest,
) -> ErrorBody | TaskRead | None:
    """Start Dedup

     Keeps one row per duplicate group and writes the rest as a new version of the dataset.

    Args:
        dataset (str):
        body (DedupRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | TaskRead
    """

    return (
        await asyncio_detailed(
            dataset=dataset,
            client=client,
            body=body,
        )
    ).parsed
