from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.job_logs_stream import JobLogsStream
from ...models.log_tail import LogTail
from ...types import UNSET, Response, Unset


def _get_kwargs(
    job: str,
    *,
    stream: JobLogsStream | Unset = JobLogsStream.STDOUT,
    lines: int | Unset = 200,
    contains: None | str | Unset = UNSET,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    json_stream: str | Unset = UNSET
    if not isinstance(stream, Unset):
        json_stream = stream.value

    params["stream"] = json_stream

    params["lines"] = lines

    json_contains: None | str | Unset
    if isinstance(contains, Unset):
        json_contains = UNSET
    else:
        json_contains = contains
    params["contains"] = json_contains

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/jobs/{job}/logs".format(
            job=quote(str(job), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | LogTail | None:
    if response.status_code == 200:
        response_200 = LogTail.from_dict(response.json())

        return response_200

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | LogTail]:
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
    stream: JobLogsStream | Unset = JobLogsStream.STDOUT,
    lines: int | Unset = 200,
    contains: None | str | Unset = UNSET,
) -> Response[ErrorBody | LogTail]:
    """Job Logs

    Args:
        job (str):
        stream (JobLogsStream | Unset):  Default: JobLogsStream.STDOUT.
        lines (int | Unset):  Default: 200.
        contains (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | LogTail]
    """

    kwargs = _get_kwargs(
        job=job,
        stream=stream,
        lines=lines,
        contains=contains,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    stream: JobLogsStream | Unset = JobLogsStream.STDOUT,
    lines: int | Unset = 200,
    contains: None | str | Unset = UNSET,
) -> ErrorBody | LogTail | None:
    """Job Logs

    Args:
        job (str):
        stream (JobLogsStream | Unset):  Default: JobLogsStream.STDOUT.
        lines (int | Unset):  Default: 200.
        contains (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | LogTail
    """

    return sync_detailed(
        job=job,
        client=client,
        stream=stream,
        lines=lines,
        contains=contains,
    ).parsed


async def asyncio_detailed(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    stream: JobLogsStream | Unset = JobLogsStream.STDOUT,
    lines: int | Unset = 200,
    contains: None | str | Unset = UNSET,
) -> Response[ErrorBody | LogTail]:
    """Job Logs

    Args:
        job (str):
        stream (JobLogsStream | Unset):  Default: JobLogsStream.STDOUT.
        lines (int | Unset):  Default: 200.
        contains (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | LogTail]
    """

    kwargs = _get_kwargs(
        job=job,
        stream=stream,
        lines=lines,
        contains=contains,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    stream: JobLogsStream | Unset = JobLogsStream.STDOUT,
    lines: int | Unset = 200,
    contains: None | str | Unset = UNSET,
) -> ErrorBody | LogTail | None:
    """Job Logs

    Args:
        job (str):
        stream (JobLogsStream | Unset):  Default: JobLogsStream.STDOUT.
        lines (int | Unset):  Default: 200.
        contains (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | LogTail
    """

    return (
        await asyncio_detailed(
            job=job,
            client=client,
            stream=stream,
            lines=lines,
            contains=contains,
        )
    ).parsed
