from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.audit_entry_read import AuditEntryRead
from ...models.error_body import ErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    actor: None | str | Unset = UNSET,
    resource_kind: None | str | Unset = UNSET,
    resource: None | str | Unset = UNSET,
    action: None | str | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    json_actor: None | str | Unset
    if isinstance(actor, Unset):
        json_actor = UNSET
    else:
        json_actor = actor
    params["actor"] = json_actor

    json_resource_kind: None | str | Unset
    if isinstance(resource_kind, Unset):
        json_resource_kind = UNSET
    else:
        json_resource_kind = resource_kind
    params["resource_kind"] = json_resource_kind

    json_resource: None | str | Unset
    if isinstance(resource, Unset):
        json_resource = UNSET
    else:
        json_resource = resource
    params["resource"] = json_resource

    json_action: None | str | Unset
    if isinstance(action, Unset):
        json_action = UNSET
    else:
        json_action = action
    params["action"] = json_action

    params["limit"] = limit

    params["offset"] = offset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/auth/audit",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | list[AuditEntryRead] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = AuditEntryRead.from_dict(response_200_item_data)

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
) -> Response[ErrorBody | list[AuditEntryRead]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    actor: None | str | Unset = UNSET,
    resource_kind: None | str | Unset = UNSET,
    resource: None | str | Unset = UNSET,
    action: None | str | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
) -> Response[ErrorBody | list[AuditEntryRead]]:
    """Audit Log

     Who created, started, paused, resumed, stopped, exported or deleted what, newest first.

    Args:
        actor (None | str | Unset):
        resource_kind (None | str | Unset):
        resource (None | str | Unset): A resource's id or name.
        action (None | str | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[AuditEntryRead]]
    """

    kwargs = _get_kwargs(
        actor=actor,
        resource_kind=resource_kind,
        resource=resource,
        action=action,
        limit=limit,
        offset=offset,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    actor: None | str | Unset = UNSET,
    resource_kind: None | str | Unset = UNSET,
    resource: None | str | Unset = UNSET,
    action: None | str | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
) -> ErrorBody | list[AuditEntryRead] | None:
    """Audit Log

     Who created, started, paused, resumed, stopped, exported or deleted what, newest first.

    Args:
        actor (None | str | Unset):
        resource_kind (None | str | Unset):
        resource (None | str | Unset): A resource's id or name.
        action (None | str | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[AuditEntryRead]
    """

    return sync_detailed(
        client=client,
        actor=actor,
        resource_kind=resource_kind,
        resource=resource,
        action=action,
        limit=limit,
        offset=offset,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    actor: None | str | Unset = UNSET,
    resource_kind: None | str | Unset = UNSET,
    resource: None | str | Unset = UNSET,
    action: None | str | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
) -> Response[ErrorBody | list[AuditEntryRead]]:
    """Audit Log

     Who created, started, paused, resumed, stopped, exported or deleted what, newest first.

    Args:
        actor (None | str | Unset):
        resource_kind (None | str | Unset):
        resource (None | str | Unset): A resource's id or name.
        action (None | str | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[AuditEntryRead]]
    """

    kwargs = _get_kwargs(
        actor=actor,
        resource_kind=resource_kind,
        resource=resource,
        action=action,
        limit=limit,
        offset=offset,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    actor: None | str | Unset = UNSET,
    resource_kind: None | str | Unset = UNSET,
    resource: None | str | Unset = UNSET,
    action: None | str | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
) -> ErrorBody | list[AuditEntryRead] | None:
    """Audit Log

     Who created, started, paused, resumed, stopped, exported or deleted what, newest first.

    Args:
        actor (None | str | Unset):
        resource_kind (None | str | Unset):
        resource (None | str | Unset): A resource's id or name.
        action (None | str | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[AuditEntryRead]
    """

    return (
        await asyncio_detailed(
            client=client,
            actor=actor,
            resource_kind=resource_kind,
            resource=resource,
            action=action,
            limit=limit,
            offset=offset,
        )
    ).parsed
