from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.tracker_export_read import TrackerExportRead
from ...types import Response


def _get_kwargs(
    job: str,
) -> dict[str, Any]:
    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/jobs/{job}/trackers".format(
            job=quote(str(job), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | list[TrackerExportRead] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = TrackerExportRead.from_dict(response_200_item_data)

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
) -> Response[ErrorBody | list[TrackerExportRead]]:
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
) -> Response[ErrorBody | list[TrackerExportRead]]:
    """Job Tracker Exports

     Where each export of the job's metrics to a tracker stands: the last step the tracker took, failures
    and the
    last error, when it tries again (docs/trackers.md). Empty until the job has steps, or when it
    exports nowhere.

    Args:
        job (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[TrackerExportRead]]
    """

    kwargs = _get_kwargs(
        job=job,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job: str,
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | list[TrackerExportRead] | None:
    """Job Tracker Exports

     Where each export of the job's metrics to a tracker stands: the last step the tracker took, failures
    and the
    last error, when it tries again (docs/trackers.md). Empty until the job has steps, or when it
    exports nowhere.

    Args:
        job (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[TrackerExportRead]
    """

    return sync_detailed(
        job=job,
        client=client,
    ).parsed


async def asyncio_detailed(
    job: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | list[TrackerExportRead]]:
    """Job Tracker Exports

     Where each export of the job's metrics to a tracker stands: the last step the tracker took, failures
    and the
    last error, when it tries again (docs/trackers.md). Empty until the job has steps, or when it
    exports nowhere.

    Args:
        job (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[TrackerExportRead]]
    """

    kwargs = _get_kwargs(
        job=job,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job: str,
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | list[TrackerExportRead] | None:
    """Job Tracker Exports

     Where each export of the job's metrics to a tracker stands: the last step the tracker took, failures
    and the
    last error, when it tries again (docs/trackers.md). Empty until the job has steps, or when it
    exports nowhere.

    Args:
        job (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[TrackerExportRead]
    """

    return (
        await asyncio_detailed(
            job=job,
            client=client,
        )
    ).parsed
