from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.pipeline_read import PipelineRead
from ...models.resume_request import ResumeRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    pipeline: str,
    *,
    body: None | ResumeRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/pipelines/{pipeline}/resume".format(
            pipeline=quote(str(pipeline), safe=""),
        ),
    }

    if isinstance(body, ResumeRequest):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
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
    body: None | ResumeRequest | Unset = UNSET,
) -> Response[ErrorBody | PipelineRead]:
    """Resume

    Args:
        pipeline (str):
        body (None | ResumeRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PipelineRead]
    """

    kwargs = _get_kwargs(
        pipeline=pipeline,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    pipeline: str,
    *,
    client: AuthenticatedClient | Client,
    body: None | ResumeRequest | Unset = UNSET,
) -> ErrorBody | PipelineRead | None:
    """Resume

    Args:
        pipeline (str):
        body (None | ResumeRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PipelineRead
    """

    return sync_detailed(
        pipeline=pipeline,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    pipeline: str,
    *,
    client: AuthenticatedClient | Client,
    body: None | ResumeRequest | Unset = UNSET,
) -> Response[ErrorBody | PipelineRead]:
    """Resume

    Args:
        pipeline (str):
        body (None | ResumeRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PipelineRead]
    """

    kwargs = _get_kwargs(
        pipeline=pipeline,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    pipeline: str,
    *,
    client: AuthenticatedClient | Client,
    body: None | ResumeRequest | Unset = UNSET,
) -> ErrorBody | PipelineRead | None:
    """Resume

    Args:
        pipeline (str):
        body (None | ResumeRequest | Unset):

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
            body=body,
        )
    ).parsed
