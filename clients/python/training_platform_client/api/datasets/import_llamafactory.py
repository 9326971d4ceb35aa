from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.llama_factory_import import LlamaFactoryImport
from ...models.llama_factory_import_result import LlamaFactoryImportResult
from ...types import Response


def _get_kwargs(
    *,
    body: LlamaFactoryImport,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/datasets/import/llamafactory",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | LlamaFactoryImportResult | None:
    if response.status_code == 200:
        response_200 = LlamaFactoryImportResult.from_dict(response.json())

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
) -> Response[ErrorBody | LlamaFactoryImportResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: LlamaFactoryImport,
) -> Response[ErrorBody | LlamaFactoryImportResult]:
    """Import Llamafactory

     Register every local dataset a LLaMA-Factory dataset_info.json describes, with its format, columns
    and tags;
    each entry says whether it was registered, skipped (and why: hub datasets, media, KTO) or failed
    (and why).

    Args:
        body (LlamaFactoryImport): A LLaMA-Factory project's dataset_info.json, each local dataset
            it describes registered where it is
            (datasets/llamafactory.py).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | LlamaFactoryImportResult]
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
    body: LlamaFactoryImport,
) -> ErrorBody | LlamaFactoryImportResult | None:
    """Import Llamafactory

     Register every local dataset a LLaMA-Factory dataset_info.json describes, with its format, columns
    and tags;
    each entry says whether it was registered, skipped (and why: hub datasets, media, KTO) or failed
    (and why).

    Args:
        body (LlamaFactoryImport): A LLaMA-Factory project's dataset_info.json, each local dataset
            it describes registered where it is
            (datasets/llamafactory.py).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | LlamaFactoryImportResult
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: LlamaFactoryImport,
) -> Response[ErrorBody | LlamaFactoryImportResult]:
    """Import Llamafactory

     Register every local dataset a LLaMA-Factory dataset_info.json describes, with its format, columns
    and tags;
    each entry says whether it was registered, skipped (and why: hub datasets, media, KTO) or failed
    (and why).

    Args:
        body (LlamaFactoryImport): A LLaMA-Factory project's dataset_info.json, each local dataset
            it describes registered where it is
            (datasets/llamafactory.py).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | LlamaFactoryImportResult]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: LlamaFactoryImport,
) -> ErrorBody | LlamaFactoryImportResult | None:
    """Import Llamafactory

     Register every local dataset a LLaMA-Factory dataset_info.json describes, with its format, columns
    and tags;
    each entry says whether it was registered, skipped (and why: hub datasets, media, KTO) or failed
    (and why).

    Args:
        body (LlamaFactoryImport): A LLaMA-Factory project's dataset_info.json, each local dataset
            it describes registered where it is
            (datasets/llamafactory.py).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | LlamaFactoryImportResult
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
