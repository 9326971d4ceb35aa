from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.pipeline_read import PipelineRead
from ...types import Response


def _get_kwargs(
    pipeline: str,
) -> dict[str, Any]:
    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/pipelines/{pipeline}/start".format(
            pipeline=quote(str(pipeline), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | PipelineRead | None:
    if response.status_code == 200:
        response_200 = PipelineRead.from_dict(response.json())

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
) -> Response[ErrorBody | PipelineRead]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    pipeline: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | PipelineRead]:
    """Start

    Args:
        pipeline (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PipelineRead]
    """

    kwargs = _get_kwargs(
        pipeline=pipeline,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    pipeline: str,
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | PipelineRead | None:
    """Start

    Args:
        pipeline (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PipelineRead
    """

    return sync_detailed(
        pipeline=pipeline,
        client=client,
    ).parsed


async def asyncio_detailed(
    pipeline: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | PipelineRead]:
    """Start

    Args:
        pipeline (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PipelineRead]
    """

    kwargs = _get_kwargs(
        pipeline=pipeline,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    pipeline: str,
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | PipelineRead | None:
    """Start

    Args:
        pipeline (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PipelineRead
    """

    return (
        await asyncio_detailed(
            pipeline=pipeline,
            client=client,
        )
    ).parsed
