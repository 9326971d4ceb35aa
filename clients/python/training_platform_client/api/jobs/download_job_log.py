from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.download_job_log_stream import DownloadJobLogStream
from ...models.error_body import ErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    job: str,
    *,
    stream: DownloadJobLogStream | Unset = DownloadJobLogStream.STDOUT,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    json_stream: str | Unset = UNSET
    if not isinstance(stream, Unset):
        json_stream = stream.value

    params["stream"] = json_stream

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/jobs/{job}/logs/download".format(
            job=quote(str(job), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ErrorBody | None:
    if response.status_code == 200:
        response_200 = response.json()
        return response_200

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ErrorBody]:
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
    stream: DownloadJobLogStream | Unset = DownloadJobLogStream.STDOUT,
) -> Response[Any | ErrorBody]:
    """Download Job Log

    Args:
        job (str):
        stream (DownloadJobLogStream | Unset):  Default: DownloadJobLogStream.STDOUT.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
    """

    kwargs = _get_kwargs(
        job=job,
        stream=stream,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    stream: DownloadJobLogStream | Unset = DownloadJobLogStream.STDOUT,
) -> Any | ErrorBody | None:
    """Download Job Log

    Args:
        job (str):
        stream (DownloadJobLogStream | Unset):  Default: DownloadJobLogStream.STDOUT.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
    """

    return sync_detailed(
        job=job,
        client=client,
        stream=stream,
    ).parsed


async def asyncio_detailed(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    stream: DownloadJobLogStream | Unset = DownloadJobLogStream.STDOUT,
) -> Response[Any | ErrorBody]:
    """Download Job Log

    Args:
        job (str):
        stream (DownloadJobLogStream | Unset):  Default: DownloadJobLogStream.STDOUT.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
    """

    kwargs = _get_kwargs(
        job=job,
        stream=stream,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    stream: DownloadJobLogStream | Unset = DownloadJobLogStream.STDOUT,
) -> Any | ErrorBody | None:
    """Download Job Log

    Args:
        job (str):
        stream (DownloadJobLogStream | Unset):  Default: DownloadJobLogStream.STDOUT.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
    """

    return (
        await asyncio_detailed(
            job=job,
            client=client,
            stream=stream,
        )
    ).parsed
