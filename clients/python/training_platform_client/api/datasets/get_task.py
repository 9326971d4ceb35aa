from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.audit_task_read import AuditTaskRead
from ...models.error_body import ErrorBody
from ...types import Response


def _get_kwargs(
    dataset: str,
    task: str,
) -> dict[str, Any]:
    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/datasets/{dataset}/tasks/{task}".format(
            dataset=quote(str(dataset), safe=""),
            task=quote(str(task), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AuditTaskRead | ErrorBody | None:
    if response.status_code == 200:
        response_200 = AuditTaskRead.from_dict(response.json())

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
) -> Response[AuditTaskRead | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    dataset: str,
    task: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[AuditTaskRead | ErrorBody]:
    """Get Task

     An audit's findings are said in the reader's language.

    Args:
        dataset (str):
        task (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditTaskRead | ErrorBody]
    """

    kwargs = _get_kwargs(
        dataset=dataset,
        task=task,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    dataset: str,
    task: str,
    *,
    client: AuthenticatedClient | Client,
) -> AuditTaskRead | ErrorBody | None:
    """Get Task

     An audit's findings are said in the reader's language.

    Args:
        dataset (str):
        task (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditTaskRead | ErrorBody
    """

    return sync_detailed(
        dataset=dataset,
        task=task,
        client=client,
    ).parsed


async def asyncio_detailed(
    dataset: str,
    task: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[AuditTaskRead | ErrorBody]:
    """Get Task

     An audit's findings are said in the reader's language.

    Args:
        dataset (str):
        task (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditTaskRead | ErrorBody]
    """

    kwargs = _get_kwargs(
        dataset=dataset,
        task=task,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    dataset: str,
    task: str,
    *,
    client: AuthenticatedClient | Client,
) -> AuditTaskRead | ErrorBody | None:
    """Get Task

     An audit's findings are said in the reader's language.

    Args:
        dataset (str):
        task (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditTaskRead | ErrorBody
    """

    return (
        await asyncio_detailed(
            dataset=dataset,
            task=task,
            client=client,
        )
    ).parsed
