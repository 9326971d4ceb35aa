from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.search_hit_out import SearchHitOut
from ...models.search_request import SearchRequest
from ...types import Response


def _get_kwargs(
    dataset: str,
    *,
    body: SearchRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/datasets/{dataset}/search".format(
            dataset=quote(str(dataset), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | list[SearchHitOut] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = SearchHitOut.from_dict(response_200_item_data)

            response_200.append(response_200_item)

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
) -> Response[ErrorBody | list[SearchHitOut]]:
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
    body: SearchRequest,
) -> Response[ErrorBody | list[SearchHitOut]]:
    """Search

    Args:
        dataset (str):
        body (SearchRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[SearchHitOut]]
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
    body: SearchRequest,
) -> ErrorBody | list[SearchHitOut] | None:
    """Search

    Args:
        dataset (str):
        body (SearchRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[SearchHitOut]
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
    body: SearchRequest,
) -> Response[ErrorBody | list[SearchHitOut]]:
    """Search

    Args:
        dataset (str):
        body (SearchRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[SearchHitOut]]
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
    body: SearchRequest,
) -> ErrorBody | list[SearchHitOut] | None:
    """Search

    Args:
        dataset (str):
        body (SearchRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[SearchHitOut]
    """

    return (
        await asyncio_detailed(
            dataset=dataset,
            client=client,
            body=body,
        )
    ).parsed
