from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.job_task_read import JobTaskRead
from ...types import Response


def _get_kwargs(
    job: str,
    checkpoint: str,
) -> dict[str, Any]:
    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/jobs/{job}/checkpoints/{checkpoint}/export".format(
            job=quote(str(job), safe=""),
            checkpoint=quote(str(checkpoint), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | JobTaskRead | None:
    if response.status_code == 202:
        response_202 = JobTaskRead.from_dict(response.json())

        return response_202

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | JobTaskRead]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    job: str,
    checkpoint: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | JobTaskRead]:
    """Export Checkpoint

     Start writing a checkpoint as a Hugging Face model directory (verl: through verl's model merger);
    follow
    the task at GET /jobs/{job}/tasks/{task}, whose result names the directory.

    Args:
        job (str):
        checkpoint (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | JobTaskRead]
    """

    kwargs = _get_kwargs(
        job=job,
        checkpoint=checkpoint,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job: str,
    checkpoint: str,
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | JobTaskRead | None:
    """Export Checkpoint

     Start writing a checkpoint as a Hugging Face model directory (verl: through verl's model merger);
    follow
    the task at GET /jobs/{job}/tasks/{task}, whose result names the directory.

    Args:
        job (str):
        checkpoint (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | JobTaskRead
    """

    return sync_detailed(
        job=job,
        checkpoint=checkpoint,
        client=client,
    ).parsed


async def asyncio_detailed(
    job: str,
    checkpoint: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | JobTaskRead]:
    """Export Checkpoint

     Start writing a checkpoint as a Hugging Face model directory (verl: through verl's model merger);
    follow
    the task at GET /jobs/{job}/tasks/{task}, whose result names the directory.

    Args:
        job (str):
        checkpoint (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | JobTaskRead]
    """

    kwargs = _get_kwargs(
        job=job,
        checkpoint=checkpoint,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job: str,
    checkpoint: str,
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | JobTaskRead | None:
    """Export Checkpoint

     Start writing a checkpoint as a Hugging Face model directory (verl: through verl's model merger);
    follow
    the task at GET /jobs/{job}/tasks/{task}, whose result names the directory.

    Args:
        job (str):
        checkpoint (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | JobTaskRead
    """

    return (
        await asyncio_detailed(
            job=job,
            checkpoint=checkpoint,
            client=client,
        )
    ).parsed
