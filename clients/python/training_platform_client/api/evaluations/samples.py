from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.samples_page import SamplesPage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    run: str,
    *,
    offset: int | Unset = 0,
    limit: int | Unset = 50,
    category: None | str | Unset = UNSET,
    search: None | str | Unset = UNSET,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    params["offset"] = offset

    params["limit"] = limit

    json_category: None | str | Unset
    if isinstance(category, Unset):
        json_category = UNSET
    else:
        json_category = category
    params["category"] = json_category

    json_search: None | str | Unset
    if isinstance(search, Unset):
        json_search = UNSET
    else:
        json_search = search
    params["search"] = json_search

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/evaluations/{run}/samples".format(
            run=quote(str(run), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | SamplesPage | None:
    if response.status_code == 200:
        response_200 = SamplesPage.from_dict(response.json())

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
) -> Response[ErrorBody | SamplesPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    run: str,
    *,
    client: AuthenticatedClient | Client,
    offset: int | Unset = 0,
    limit: int | Unset = 50,
    category: None | str | Unset = UNSET,
    search: None | str | Unset = UNSET,
) -> Response[ErrorBody | SamplesPage]:
    """Samples

    Args:
        run (str):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 50.
        category (None | str | Unset):
        search (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SamplesPage]
    """

    kwargs = _get_kwargs(
        run=run,
        offset=offset,
        limit=limit,
        category=category,
        search=search,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    run: str,
    *,
    client: AuthenticatedClient | Client,
    offset: int | Unset = 0,
    limit: int | Unset = 50,
    category: None | str | Unset = UNSET,
    search: None | str | Unset = UNSET,
) -> ErrorBody | SamplesPage | None:
    """Samples

    Args:
        run (str):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 50.
        category (None | str | Unset):
        search (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SamplesPage
    """

    return sync_detailed(
        run=run,
        client=client,
        offset=offset,
        limit=limit,
        category=category,
        search=search,
    ).parsed


async def asyncio_detailed(
    run: str,
    *,
    client: AuthenticatedClient | Client,
    offset: int | Unset = 0,
    limit: int | Unset = 50,
    category: None | str | Unset = UNSET,
    search: None | str | Unset = UNSET,
) -> Response[ErrorBody | SamplesPage]:
    """Samples

    Args:
        run (str):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 50.
        category (None | str | Unset):
        search (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SamplesPage]
    """

    kwargs = _get_kwargs(
        run=run,
        offset=offset,
        limit=limit,
        category=category,
        search=search,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    run: str,
    *,
    client: AuthenticatedClient | Client,
    offset: int | Unset = 0,
    limit: int | Unset = 50,
    category: None | str | Unset = UNSET,
    search: None | str | Unset = UNSET,
) -> ErrorBody | SamplesPage | None:
    """Samples

    Args:
        run (str):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 50.
        category (None | str | Unset):
        search (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SamplesPage
    """

    return (
        await asyncio_detailed(
            run=run,
            client=client,
            offset=offset,
            limit=limit,
            category=category,
            search=search,
        )
    ).parsed
