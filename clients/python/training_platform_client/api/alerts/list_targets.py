from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.alert_target_read import AlertTargetRead
from ...models.error_body import ErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    job: None | str | Unset = UNSET,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    json_job: None | str | Unset
    if isinstance(job, Unset):
        json_job = UNSET
    else:
        json_job = job
    params["job"] = json_job

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/alerts/targets",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | list[AlertTargetRead] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = AlertTargetRead.from_dict(response_200_item_data)

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
) -> Response[ErrorBody | list[AlertTargetRead]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    job: None | str | Unset = UNSET,
) -> Response[ErrorBody | list[AlertTargetRead]]:
    """List Targets

    Args:
        job (None | str | Unset): Only this job's own targets.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[AlertTargetRead]]
    """

    kwargs = _get_kwargs(
        job=job,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    job: None | str | Unset = UNSET,
) -> ErrorBody | list[AlertTargetRead] | None:
    """List Targets

    Args:
        job (None | str | Unset): Only this job's own targets.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[AlertTargetRead]
    """

    return sync_detailed(
        client=client,
        job=job,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    job: None | str | Unset = UNSET,
) -> Response[ErrorBody | list[AlertTargetRead]]:
    """List Targets

    Args:
        job (None | str | Unset): Only this job's own targets.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[AlertTargetRead]]
    """

    kwargs = _get_kwargs(
        job=job,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    job: None | str | Unset = UNSET,
) -> ErrorBody | list[AlertTargetRead] | None:
    """List Targets

    Args:
        job (None | str | Unset): Only this job's own targets.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[AlertTargetRead]
    """

    return (
        await asyncio_detailed(
            client=client,
            job=job,
        )
    ).parsed
