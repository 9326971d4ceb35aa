from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.metrics_out import MetricsOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    job: str,
    *,
    keys: list[str] | None | Unset = UNSET,
    start_step: int | None | Unset = UNSET,
    end_step: int | None | Unset = UNSET,
    max_points: int | None | Unset = UNSET,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    json_keys: list[str] | None | Unset
    if isinstance(keys, Unset):
        json_keys = UNSET
    elif isinstance(keys, list):
        json_keys = keys

    else:
        json_keys = keys
    params["keys"] = json_keys

    json_start_step: int | None | Unset
    if isinstance(start_step, Unset):
        json_start_step = UNSET
    else:
        json_start_step = start_step
    params["start_step"] = json_start_step

    json_end_step: int | None | Unset
    if isinstance(end_step, Unset):
        json_end_step = UNSET
    else:
        json_end_step = end_step
    params["end_step"] = json_end_step

    json_max_points: int | None | Unset
    if isinstance(max_points, Unset):
        json_max_points = UNSET
    else:
        json_max_points = max_points
    params["max_points"] = json_max_points

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/monitoring/{job}/metrics".format(
            job=quote(str(job), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | MetricsOut | None:
    if response.status_code == 200:
        response_200 = MetricsOut.from_dict(response.json())

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
) -> Response[ErrorBody | MetricsOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    keys: list[str] | None | Unset = UNSET,
    start_step: int | None | Unset = UNSET,
    end_step: int | None | Unset = UNSET,
    max_points: int | None | Unset = UNSET,
) -> Response[ErrorBody | MetricsOut]:
    """Get Metrics

    Args:
        job (str):
        keys (list[str] | None | Unset): Keys to return (repeat, or comma-separate); all if
            omitted.
        start_step (int | None | Unset):
        end_step (int | None | Unset):
        max_points (int | None | Unset): Downsample each series to at most this many points (all
            of them together stay within the server's limit, PLATFORM_METRICS_MAX_POINTS).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MetricsOut]
    """

    kwargs = _get_kwargs(
        job=job,
        keys=keys,
        start_step=start_step,
        end_step=end_step,
        max_points=max_points,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    keys: list[str] | None | Unset = UNSET,
    start_step: int | None | Unset = UNSET,
    end_step: int | None | Unset = UNSET,
    max_points: int | None | Unset = UNSET,
) -> ErrorBody | MetricsOut | None:
    """Get Metrics

    Args:
        job (str):
        keys (list[str] | None | Unset): Keys to return (repeat, or comma-separate); all if
            omitted.
        start_step (int | None | Unset):
        end_step (int | None | Unset):
        max_points (int | None | Unset): Downsample each series to at most this many points (all
            of them together stay within the server's limit, PLATFORM_METRICS_MAX_POINTS).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MetricsOut
    """

    return sync_detailed(
        job=job,
        client=client,
        keys=keys,
        start_step=start_step,
        end_step=end_step,
        max_points=max_points,
    ).parsed


async def asyncio_detailed(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    keys: list[str] | None | Unset = UNSET,
    start_step: int | None | Unset = UNSET,
    end_step: int | None | Unset = UNSET,
    max_points: int | None | Unset = UNSET,
) -> Response[ErrorBody | MetricsOut]:
    """Get Metrics

    Args:
        job (str):
        keys (list[str] | None | Unset): Keys to return (repeat, or comma-separate); all if
            omitted.
        start_step (int | None | Unset):
        end_step (int | None | Unset):
        max_points (int | None | Unset): Downsample each series to at most this many points (all
            of them together stay within the server's limit, PLATFORM_METRICS_MAX_POINTS).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MetricsOut]
    """

    kwargs = _get_kwargs(
        job=job,
        keys=keys,
        start_step=start_step,
        end_step=end_step,
        max_points=max_points,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    keys: list[str] | None | Unset = UNSET,
    start_step: int | None | Unset = UNSET,
    end_step: int | None | Unset = UNSET,
    max_points: int | None | Unset = UNSET,
) -> ErrorBody | MetricsOut | None:
    """Get Metrics

    Args:
        job (str):
        keys (list[str] | None | Unset): Keys to return (repeat, or comma-separate); all if
            omitted.
        start_step (int | None | Unset):
        end_step (int | None | Unset):
        max_points (int | None | Unset): Downsample each series to at most this many points (all
            of them together stay within the server's limit, PLATFORM_METRICS_MAX_POINTS).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MetricsOut
    """

    return (
        await asyncio_detailed(
            job=job,
            client=client,
            keys=keys,
            start_step=start_step,
            end_step=end_step,
            max_points=max_points,
        )
    ).parsed
