from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delivery_read import DeliveryRead
from ...models.error_body import ErrorBody
from ...models.list_deliveries_status_item import ListDeliveriesStatusItem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    target: str,
    *,
    status: list[ListDeliveriesStatusItem] | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    json_status: list[str] | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = []
        for status_item_data in status:
            status_item = status_item_data.value
            json_status.append(status_item)

    params["status"] = json_status

    params["limit"] = limit

    params["offset"] = offset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/alerts/targets/{target}/deliveries".format(
            target=quote(str(target), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | list[DeliveryRead] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = DeliveryRead.from_dict(response_200_item_data)

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
) -> Response[ErrorBody | list[DeliveryRead]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    target: str,
    *,
    client: AuthenticatedClient | Client,
    status: list[ListDeliveriesStatusItem] | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
) -> Response[ErrorBody | list[DeliveryRead]]:
    """List Deliveries

     Newest first, each with every attempt made for it.

    Args:
        target (str):
        status (list[ListDeliveriesStatusItem] | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[DeliveryRead]]
    """

    kwargs = _get_kwargs(
        target=target,
        status=status,
        limit=limit,
        offset=offset,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    target: str,
    *,
    client: AuthenticatedClient | Client,
    status: list[ListDeliveriesStatusItem] | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
) -> ErrorBody | list[DeliveryRead] | None:
    """List Deliveries

     Newest first, each with every attempt made for it.

    Args:
        target (str):
        status (list[ListDeliveriesStatusItem] | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[DeliveryRead]
    """

    return sync_detailed(
        target=target,
        client=client,
        status=status,
        limit=limit,
        offset=offset,
    ).parsed


async def asyncio_detailed(
    target: str,
    *,
    client: AuthenticatedClient | Client,
    status: list[ListDeliveriesStatusItem] | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
) -> Response[ErrorBody | list[DeliveryRead]]:
    """List Deliveries

     Newest first, each with every attempt made for it.

    Args:
        target (str):
        status (list[ListDeliveriesStatusItem] | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[DeliveryRead]]
    """

    kwargs = _get_kwargs(
        target=target,
        status=status,
        limit=limit,
        offset=offset,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    target: str,
    *,
    client: AuthenticatedClient | Client,
    status: list[ListDeliveriesStatusItem] | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
) -> ErrorBody | list[DeliveryRead] | None:
    """List Deliveries

     Newest first, each with every attempt made for it.

    Args:
        target (str):
        status (list[ListDeliveriesStatusItem] | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[DeliveryRead]
    """

    return (
        await asyncio_detailed(
            target=target,
            client=client,
            status=status,
            limit=limit,
            offset=offset,
        )
    ).parsed
