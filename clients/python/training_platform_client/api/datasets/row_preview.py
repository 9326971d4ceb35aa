from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.loss_preview import LossPreview
from ...models.row_preview_train_on import RowPreviewTrainOn
from ...types import UNSET, Response, Unset


def _get_kwargs(
    dataset: str,
    row: int,
    *,
    tokenizer: str,
    max_length: int | None | Unset = UNSET,
    train_on: RowPreviewTrainOn | Unset = RowPreviewTrainOn.ALL_ASSISTANT,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    params["tokenizer"] = tokenizer

    json_max_length: int | None | Unset
    if isinstance(max_length, Unset):
        json_max_length = UNSET
    else:
        json_max_length = max_length
    params["max_length"] = json_max_length

    json_train_on: str | Unset = UNSET
    if not isinstance(train_on, Unset):
        json_train_on = train_on.value

    params["train_on"] = json_train_on

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/datasets/{dataset}/rows/{row}/preview".format(
            dataset=quote(str(dataset), safe=""),
            row=quote(str(row), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | LossPreview | None:
    if response.status_code == 200:
        response_200 = LossPreview.from_dict(response.json())

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
) -> Response[ErrorBody | LossPreview]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    dataset: str,
    row: int,
    *,
    client: AuthenticatedClient | Client,
    tokenizer: str,
    max_length: int | None | Unset = UNSET,
    train_on: RowPreviewTrainOn | Unset = RowPreviewTrainOn.ALL_ASSISTANT,
) -> Response[ErrorBody | LossPreview]:
    """Row Preview

     The row after the chat template, token by token, with the tokens that carry the loss marked.

    Args:
        dataset (str):
        row (int):
        tokenizer (str): Registered model, or a model/tokenizer directory.
        max_length (int | None | Unset):
        train_on (RowPreviewTrainOn | Unset): The SFT job's loss policy: which assistant turns
            train. Default: RowPreviewTrainOn.ALL_ASSISTANT.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | LossPreview]
    """

    kwargs = _get_kwargs(
        dataset=dataset,
        row=row,
        tokenizer=tokenizer,
        max_length=max_length,
        train_on=train_on,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    dataset: str,
    row: int,
    *,
    client: AuthenticatedClient | Client,
    tokenizer: str,
    max_length: int | None | Unset = UNSET,
    train_on: RowPreviewTrainOn | Unset = RowPreviewTrainOn.ALL_ASSISTANT,
) -> ErrorBody | LossPreview | None:
    """Row Preview

     The row after the chat template, token by token, with the tokens that carry the loss marked.

    Args:
        dataset (str):
        row (int):
        tokenizer (str): Registered model, or a model/tokenizer directory.
        max_length (int | None | Unset):
        train_on (RowPreviewTrainOn | Unset): The SFT job's loss policy: which assistant turns
            train. Default: RowPreviewTrainOn.ALL_ASSISTANT.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | LossPreview
    """

    return sync_detailed(
        dataset=dataset,
        row=row,
        client=client,
        tokenizer=tokenizer,
        max_length=max_length,
        train_on=train_on,
    ).parsed


async def asyncio_detailed(
    dataset: str,
    row: int,
    *,
    client: AuthenticatedClient | Client,
    tokenizer: str,
    max_length: int | None | Unset = UNSET,
    train_on: RowPreviewTrainOn | Unset = RowPreviewTrainOn.ALL_ASSISTANT,
) -> Response[ErrorBody | LossPreview]:
    """Row Preview

     The row after the chat template, token by token, with the tokens that carry the loss marked.

    Args:
        dataset (str):
        row (int):
        tokenizer (str): Registered model, or a model/tokenizer directory.
        max_length (int | None | Unset):
        train_on (RowPreviewTrainOn | Unset): The SFT job's loss policy: which assistant turns
            train. Default: RowPreviewTrainOn.ALL_ASSISTANT.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | LossPreview]
    """

    kwargs = _get_kwargs(
        dataset=dataset,
        row=row,
        tokenizer=tokenizer,
        max_length=max_length,
        train_on=train_on,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    dataset: str,
    row: int,
    *,
    client: AuthenticatedClient | Client,
    tokenizer: str,
    max_length: int | None | Unset = UNSET,
    train_on: RowPreviewTrainOn | Unset = RowPreviewTrainOn.ALL_ASSISTANT,
) -> ErrorBody | LossPreview | None:
    """Row Preview

     The row after the chat template, token by token, with the tokens that carry the loss marked.

    Args:
        dataset (str):
        row (int):
        tokenizer (str): Registered model, or a model/tokenizer directory.
        max_length (int | None | Unset):
        train_on (RowPreviewTrainOn | Unset): The SFT job's loss policy: which assistant turns
            train. Default: RowPreviewTrainOn.ALL_ASSISTANT.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | LossPreview
    """

    return (
        await asyncio_detailed(
            dataset=dataset,
            row=row,
            client=client,
            tokenizer=tokenizer,
            max_length=max_length,
            train_on=train_on,
        )
    ).parsed
