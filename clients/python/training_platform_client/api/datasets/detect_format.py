from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detect_request import DetectRequest
from ...models.detect_result import DetectResult
from ...models.error_body import ErrorBody
from ...types import Response


def _get_kwargs(
    *,
    body: DetectRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/datasets/detect",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DetectResult | ErrorBody | None:
    if response.status_code == 200:
        response_200 = DetectResult.from_dict(response.json())

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
) -> Response[DetectResult | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: DetectRequest,
) -> Response[DetectResult | ErrorBody]:
    """Detect Format

     The format a file's first rows would register with (read by the client before it sends the file),
    with
    those rows as the engines would receive them; why no preset fits in the reader's language.

    Args:
        body (DetectRequest): The first rows of a file, read by the client, to propose its format
            before the file is sent.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetectResult | ErrorBody]
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
    body: DetectRequest,
) -> DetectResult | ErrorBody | None:
    """Detect Format

     The format a file's first rows would register with (read by the client before it sends the file),
    with
    those rows as the engines would receive them; why no preset fits in the reader's language.

    Args:
        body (DetectRequest): The first rows of a file, read by the client, to propose its format
            before the file is sent.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetectResult | ErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: DetectRequest,
) -> Response[DetectResult | ErrorBody]:
    """Detect Format

     The format a file's first rows would register with (read by the client before it sends the file),
    with
    those rows as the engines would receive them; why no preset fits in the reader's language.

    Args:
        body (DetectRequest): The first rows of a file, read by the client, to propose its format
            before the file is sent.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DetectResult | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: DetectRequest,
) -> DetectResult | ErrorBody | None:
    """Detect Format

     The format a file's first rows would register with (read by the client before it sends the file),
    with
    those rows as the engines would receive them; why no preset fits in the reader's language.

    Args:
        body (DetectRequest): The first rows of a file, read by the client, to propose its format
            before the file is sent.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DetectResult | ErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
