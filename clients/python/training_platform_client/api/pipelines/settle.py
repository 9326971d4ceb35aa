from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.stage_claim import StageClaim
from ...models.stage_read import StageRead
from ...types import Response


def _get_kwargs(
    pipeline: str,
    stage: str,
    *,
    body: StageClaim,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/pipelines/{pipeline}/stages/{stage}/settle".format(
            pipeline=quote(str(pipeline), safe=""),
            stage=quote(str(stage), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | StageRead | None:
    if response.status_code == 200:
        response_200 = StageRead.from_dict(response.json())

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
) -> Response[ErrorBody | StageRead]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    pipeline: str,
    stage: str,
    *,
    client: AuthenticatedClient | Client,
    body: StageClaim,
) -> Response[ErrorBody | StageRead]:
    """Settle

    Args:
        pipeline (str):
        stage (str):
        body (StageClaim):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | StageRead]
    """

    kwargs = _get_kwargs(
        pipeline=pipeline,
        stage=stage,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    pipeline: str,
    stage: str,
    *,
    client: AuthenticatedClient | Client,
    body: StageClaim,
) -> ErrorBody | StageRead | None:
    """Settle

    Args:
        pipeline (str):
        stage (str):
        body (StageClaim):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | StageRead
    """

    return sync_detailed(
        pipeline=pipeline,
        stage=stage,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    pipeline: str,
    stage: str,
    *,
    client: AuthenticatedClient | Client,
    body: StageClaim,
) -> Response[ErrorBody | StageRead]:
    """Settle

    Args:
        pipeline (str):
        stage (str):
        body (StageClaim):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | StageRead]
    """

    kwargs = _get_kwargs(
        pipeline=pipeline,
        stage=stage,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    pipeline: str,
    stage: str,
    *,
    client: AuthenticatedClient | Client,
    body: StageClaim,
) -> ErrorBody | StageRead | None:
    """Settle

    Args:
        pipeline (str):
        stage (str):
        body (StageClaim):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | StageRead
    """

    return (
        await asyncio_detailed(
            pipeline=pipeline,
            stage=stage,
            client=client,
            body=body,
        )
    ).parsed
