from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.verl_command import VerlCommand
from ...models.verl_validation import VerlValidation
from ...types import Response


def _get_kwargs(
    *,
    body: VerlCommand,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/engines/verl/validate",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | VerlValidation | None:
    if response.status_code == 200:
        response_200 = VerlValidation.from_dict(response.json())

        return response_200

    if response.status_code == 422:
        response_422 = cast(Any, None)
        return response_422

    if response.status_code == 503:
        response_503 = cast(Any, None)
        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | VerlValidation]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: VerlCommand,
) -> Response[Any | VerlValidation]:
    """Validate Verl Command

     Check a hand-written verl command against verl's own configs and checks, offline, before running it.
    Overrides that would run code or read the server's environment (`_target_`, `${...}`, additions of
    keys
    the platform does not add itself) are refused, each named.

    Args:
        body (VerlCommand):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | VerlValidation]
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
    body: VerlCommand,
) -> Any | VerlValidation | None:
    """Validate Verl Command

     Check a hand-written verl command against verl's own configs and checks, offline, before running it.
    Overrides that would run code or read the server's environment (`_target_`, `${...}`, additions of
    keys
    the platform does not add itself) are refused, each named.

    Args:
        body (VerlCommand):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | VerlValidation
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: VerlCommand,
) -> Response[Any | VerlValidation]:
    """Validate Verl Command

     Check a hand-written verl command against verl's own configs and checks, offline, before running it.
    Overrides that would run code or read the server's environment (`_target_`, `${...}`, additions of
    keys
    the platform does not add itself) are refused, each named.

    Args:
        body (VerlCommand):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | VerlValidation]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: VerlCommand,
) -> Any | VerlValidation | None:
    """Validate Verl Command

     Check a hand-written verl command against verl's own configs and checks, offline, before running it.
    Overrides that would run code or read the server's environment (`_target_`, `${...}`, additions of
    keys
    the platform does not add itself) are refused, each named.

    Args:
        body (VerlCommand):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | VerlValidation
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
