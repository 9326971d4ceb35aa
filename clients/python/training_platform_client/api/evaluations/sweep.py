from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.job_read import JobRead
from ...models.sweep_request import SweepRequest
from ...types import Response


def _get_kwargs(
    *,
    body: SweepRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/evaluations/sweep",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | list[JobRead] | None:
    if response.status_code == 201:
        response_201 = []
        _response_201 = response.json()
        for response_201_item_data in _response_201:
            response_201_item = JobRead.from_dict(response_201_item_data)

            response_201.append(response_201_item)

        return response_201

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | list[JobRead]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SweepRequest,
) -> Response[ErrorBody | list[JobRead]]:
    """Sweep

     One run per chosen checkpoint of a job (every `every`-th, its last, and its final model).

    Args:
        body (SweepRequest): Evaluate a job's complete checkpoints, every `every`-th of them (its
            last one always), and its final model.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[JobRead]]
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
    body: SweepRequest,
) -> ErrorBody | list[JobRead] | None:
    """Sweep

     One run per chosen checkpoint of a job (every `every`-th, its last, and its final model).

    Args:
        body (SweepRequest): Evaluate a job's complete checkpoints, every `every`-th of them (its
            last one always), and its final model.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[JobRead]
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SweepRequest,
) -> Response[ErrorBody | list[JobRead]]:
    """Sweep

     One run per chosen checkpoint of a job (every `every`-th, its last, and its final model).

    Args:
        body (SweepRequest): Evaluate a job's complete checkpoints, every `every`-th of them (its
            last one always), and its final model.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[JobRead]]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: SweepRequest,
) -> ErrorBody | list[JobRead] | None:
    """Sweep

     One run per chosen checkpoint of a job (every `every`-th, its last, and its final model).

    Args:
        body (SweepRequest): Evaluate a job's complete checkpoints, every `every`-th of them (its
            last one always), and its final model.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[JobRead]
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
