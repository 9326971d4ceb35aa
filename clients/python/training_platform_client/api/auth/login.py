from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.login_request import LoginRequest
from ...models.login_result import LoginResult
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: LoginRequest,
    token: bool | Unset = False,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    params["token"] = token

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/auth/login",
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | LoginResult | None:
    if response.status_code == 200:
        response_200 = LoginResult.from_dict(response.json())

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
) -> Response[ErrorBody | LoginResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: LoginRequest,
    token: bool | Unset = False,
) -> Response[ErrorBody | LoginResult]:
    """Login

     Start a web session (the `tplat_session` cookie). Failed attempts are limited per client address and
    per
    user name (PLATFORM_LOGIN_ATTEMPTS_PER_MINUTE); over the limit the answer is 429 with Retry-After.

    Args:
        token (bool | Unset): Also return the session token in the body (for scripts). Default:
            False.
        body (LoginRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | LoginResult]
    """

    kwargs = _get_kwargs(
        body=body,
        token=token,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: LoginRequest,
    token: bool | Unset = False,
) -> ErrorBody | LoginResult | None:
    """Login

     Start a web session (the `tplat_session` cookie). Failed attempts are limited per client address and
    per
    user name (PLATFORM_LOGIN_ATTEMPTS_PER_MINUTE); over the limit the answer is 429 with Retry-After.

    Args:
        token (bool | Unset): Also return the session token in the body (for scripts). Default:
            False.
        body (LoginRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | LoginResult
    """

    return sync_detailed(
        client=client,
        body=body,
        token=token,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: LoginRequest,
    token: bool | Unset = False,
) -> Response[ErrorBody | LoginResult]:
    """Login

     Start a web session (the `tplat_session` cookie). Failed attempts are limited per client address and
    per
    user name (PLATFORM_LOGIN_ATTEMPTS_PER_MINUTE); over the limit the answer is 429 with Retry-After.

    Args:
        token (bool | Unset): Also return the session token in the body (for scripts). Default:
            False.
        body (LoginRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | LoginResult]
    """

    kwargs = _get_kwargs(
        body=body,
        token=token,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: LoginRequest,
    token: bool | Unset = False,
) -> ErrorBody | LoginResult | None:
    """Login

     Start a web session (the `tplat_session` cookie). Failed attempts are limited per client address and
    per
    user name (PLATFORM_LOGIN_ATTEMPTS_PER_MINUTE); over the limit the answer is 429 with Retry-After.

    Args:
        token (bool | Unset): Also return the session token in the body (for scripts). Default:
            False.
        body (LoginRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | LoginResult
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            token=token,
        )
    ).parsed
