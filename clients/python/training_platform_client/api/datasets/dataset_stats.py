from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.dataset_stats import DatasetStats
from ...models.error_body import ErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    dataset: str,
    *,
    tokenizer: None | str | Unset = UNSET,
    bins: int | Unset = 20,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    json_tokenizer: None | str | Unset
    if isinstance(tokenizer, Unset):
        json_tokenizer = UNSET
    else:
        json_tokenizer = tokenizer
    params["tokenizer"] = json_tokenizer

    params["bins"] = bins

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/datasets/{dataset}/stats".format(
            dataset=quote(str(dataset), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DatasetStats | ErrorBody | None:
    if response.status_code == 200:
        response_200 = DatasetStats.from_dict(response.json())

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
) -> Response[DatasetStats | ErrorBody]:
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
    tokenizer: None | str | Unset = UNSET,
    bins: int | Unset = 20,
) -> Response[DatasetStats | ErrorBody]:
    """Dataset Stats

    Args:
        dataset (str):
        tokenizer (None | str | Unset):
        bins (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DatasetStats | ErrorBody]
    """

    kwargs = _get_kwargs(
        dataset=dataset,
        tokenizer=tokenizer,
        bins=bins,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    dataset: str,
    *,
    client: AuthenticatedClient | Client,
    tokenizer: None | str | Unset = UNSET,
    bins: int | Unset = 20,
) -> DatasetStats | ErrorBody | None:
    """Dataset Stats

    Args:
        dataset (str):
        tokenizer (None | str | Unset):
        bins (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DatasetStats | ErrorBody
    """

    return sync_detailed(
        dataset=dataset,
        client=client,
        tokenizer=tokenizer,
        bins=bins,
    ).parsed


async def asyncio_detailed(
    dataset: str,
    *,
    client: AuthenticatedClient | Client,
    tokenizer: None | str | Unset = UNSET,
    bins: int | Unset = 20,
) -> Response[DatasetStats | ErrorBody]:
    """Dataset Stats

    Args:
        dataset (str):
        tokenizer (None | str | Unset):
        bins (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DatasetStats | ErrorBody]
    """

    kwargs = _get_kwargs(
        dataset=dataset,
        tokenizer=tokenizer,
        bins=bins,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    dataset: str,
    *,
    client: AuthenticatedClient | Client,
    tokenizer: None | str | Unset = UNSET,
    bins: int | Unset = 20,
) -> DatasetStats | ErrorBody | None:
    """Dataset Stats

    Args:
        dataset (str):
        tokenizer (None | str | Unset):
        bins (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DatasetStats | ErrorBody
    """

    return (
        await asyncio_detailed(
            dataset=dataset,
            client=client,
            tokenizer=tokenizer,
            bins=bins,
        )
    ).parsed
