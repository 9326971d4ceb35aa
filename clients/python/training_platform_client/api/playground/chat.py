from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.chat_request import ChatRequest
from ...models.error_body import ErrorBody
from ...types import Response


def _get_kwargs(
    *,
    body: ChatRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/playground/chat",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ErrorBody | None:
    if response.status_code == 200:
        response_200 = cast(Any, None)
        return response_200

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ChatRequest,
) -> Response[Any | ErrorBody]:
    """Chat

     Stream a model's or an endpoint's answer to a conversation: `data: {"text": ...}` per piece, then
    `data: {"done": true, "seconds": ..., "characters": ...}`, or `data: {"error": ...}` where it fails
    after it
    began. A target that cannot answer (an unknown model, a missing secret, an endpoint that does not
    reply) is a
    422 naming its field, before anything is streamed.

    Args:
        body (ChatRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
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
    body: ChatRequest,
) -> Any | ErrorBody | None:
    """Chat

     Stream a model's or an endpoint's answer to a conversation: `data: {"text": ...}` per piece, then
    `data: {"done": true, "seconds": ..., "characters": ...}`, or `data: {"error": ...}` where it fails
    after it
    began. A target that cannot answer (an unknown model, a missing secret, an endpoint that does not
    reply) is a
    422 naming its field, before anything is streamed.

    Args:
        body (ChatRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ChatRequest,
) -> Response[Any | ErrorBody]:
    """Chat

     Stream a model's or an endpoint's answer to a conversation: `data: {"text": ...}` per piece, then
    `data: {"done": true, "seconds": ..., "characters": ...}`, or `data: {"error": ...}` where it fails
    after it
    began. A target that cannot answer (an unknown model, a missing secret, an endpoint that does not
    reply) is a
    422 naming its field, before anything is streamed.

    Args:
        body (ChatRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ChatRequest,
) -> Any | ErrorBody | None:
    """Chat

     Stream a model's or an endpoint's answer to a conversation: `data: {"text": ...}` per piece, then
    `data: {"done": true, "seconds": ..., "characters": ...}`, or `data: {"error": ...}` where it fails
    after it
    began. A target that cannot answer (an unknown model, a missing secret, an endpoint that does not
    reply) is a
    422 naming its field, before anything is streamed.

    Args:
        body (ChatRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
