from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.rows_page import RowsPage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    dataset: str,
    *,
    offset: int | Unset = 0,
    limit: int | Unset = 20,
    normalised: bool | Unset = False,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    params["offset"] = offset

    params["limit"] = limit

    params["normalised"] = normalised

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/datasets/{dataset}/rows".format(
            dataset=quote(str(dataset), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | RowsPage | None:
    if response.status_code == 200:
        response_200 = RowsPage.from_dict(response.json())

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
) -> Response[ErrorBody | RowsPage]:
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
    offset: int | Unset = 0,
    limit: int | Unset = 20,
    normalised: bool | Unset = False,
) -> Response[ErrorBody | RowsPage]:
    """Dataset Rows

    Args:
        dataset (str):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 20.
        normalised (bool | Unset): The rows in the platform's shape, through the dataset's format
            preset. Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RowsPage]
    """

    kwargs = _get_kwargs(
        dataset=dataset,
        offset=offset,
        limit=limit,
        normalised=normalised,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    dataset: str,
    *,
    client: AuthenticatedClient | Client,
    offset: int | Unset = 0,
    limit: int | Unset = 20,
    normalised: bool | Unset = False,
) -> ErrorBody | RowsPage | None:
    """Dataset Rows

    Args:
        dataset (str):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 20.
        normalised (bool | Unset): The rows in the platform's shape, through the dataset's format
            preset. Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RowsPage
    """

    return sync_detailed(
        dataset=dataset,
        client=client,
        offset=offset,
        limit=limit,
        normalised=normalised,
    ).parsed


async def asyncio_detailed(
    dataset: str,
    *,
    client: AuthenticatedClient | Client,
    offset: int | Unset = 0,
    limit: int | Unset = 20,
    normalised: bool | Unset = False,
) -> Response[ErrorBody | RowsPage]:
    """Dataset Rows

    Args:
        dataset (str):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 20.
        normalised (bool | Unset): The rows in the platform's shape, through the dataset's format
            preset. Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RowsPage]
    """

    kwargs = _get_kwargs(
        dataset=dataset,
        offset=offset,
        limit=limit,
        normalised=normalised,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    dataset: str,
    *,
    client: AuthenticatedClient | Client,
    offset: int | Unset = 0,
    limit: int | Unset = 20,
    normalised: bool | Unset = False,
) -> ErrorBody | RowsPage | None:
    """Dataset Rows

    Args:
        dataset (str):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 20.
        normalised (bool | Unset): The rows in the platform's shape, through the dataset's format
            preset. Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RowsPage
    """

    return (
        await asyncio_detailed(
            dataset=dataset,
            client=client,
            offset=offset,
            limit=limit,
            normalised=normalised,
        )
    ).parsed
