from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.reward_preview_read import RewardPreviewRead
from ...models.reward_preview_request import RewardPreviewRequest
from ...types import Response


def _get_kwargs(
    *,
    body: RewardPreviewRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/rewards/preview",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | RewardPreviewRead | None:
    if response.status_code == 200:
        response_200 = RewardPreviewRead.from_dict(response.json())

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
) -> Response[ErrorBody | RewardPreviewRead]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RewardPreviewRequest,
) -> Response[ErrorBody | RewardPreviewRead]:
    """Preview Job Rewards

     The rewards scored on the dataset's first rows, with each row's reference answer as the completion
    and with
    that answer in a plain sentence ('The answer is 7.'); a warning when no row scores above 0, since
    the model's
    own completions, however right, would not either. Runs in the decoding worker, under its limits.

    Args:
        body (RewardPreviewRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RewardPreviewRead]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: RewardPreviewRequest,
) -> ErrorBody | RewardPreviewRead | None:
    """Preview Job Rewards

     The rewards scored on the dataset's first rows, with each row's reference answer as the completion
    and with
    that answer in a plain sentence ('The answer is 7.'); a warning when no row scores above 0, since
    the model's
    own completions, however right, would not either. Runs in the decoding worker, under its limits.

    Args:
        body (RewardPreviewRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RewardPreviewRead
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RewardPreviewRequest,
) -> Response[ErrorBody | RewardPreviewRead]:
    """Preview Job Rewards

     The rewards scored on the dataset's first rows, with each row's reference answer as the completion
    and with
    that answer in a plain sentence ('The answer is 7.'); a warning when no row scores above 0, since
    the model's
    own completions, however right, would not either. Runs in the decoding worker, under its limits.

    Args:
        body (RewardPreviewRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RewardPreviewRead]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: RewardPreviewRequest,
) -> ErrorBody | RewardPreviewRead | None:
    """Preview Job Rewards

     The rewards scored on the dataset's first rows, with each row's reference answer as the completion
    and with
    that answer in a plain sentence ('The answer is 7.'); a warning when no row scores above 0, since
    the model's
    own completions, however right, would not either. Runs in the decoding worker, under its limits.

    Args:
        body (RewardPreviewRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RewardPreviewRead
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
