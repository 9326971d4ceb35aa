from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.completion_samples_page import CompletionSamplesPage
from ...models.error_body import ErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    job: str,
    *,
    step: int | None | Unset = UNSET,
    offset: int | Unset = 0,
    limit: int | Unset = 20,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    json_step: int | None | Unset
    if isinstance(step, Unset):
        json_step = UNSET
    else:
        json_step = step
    params["step"] = json_step

    params["offset"] = offset

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/jobs/{job}/samples".format(
            job=quote(str(job), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CompletionSamplesPage | ErrorBody | None:
    if response.status_code == 200:
        response_200 = CompletionSamplesPage.from_dict(response.json())

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
) -> Response[CompletionSamplesPage | ErrorBody]:
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
    step: int | None | Unset = UNSET,
    offset: int | Unset = 0,
    limit: int | Unset = 20,
) -> Response[CompletionSamplesPage | ErrorBody]:
    """List Job Samples

     A GRPO/GSPO job's sample completions with their rewards, one sampled step at a time (the latest
    unless
    `step` says which); `steps` lists the steps that have them.

    Args:
        job (str):
        step (int | None | Unset):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CompletionSamplesPage | ErrorBody]
    """

    kwargs = _get_kwargs(
        job=job,
        step=step,
        offset=offset,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    step: int | None | Unset = UNSET,
    offset: int | Unset = 0,
    limit: int | Unset = 20,
) -> CompletionSamplesPage | ErrorBody | None:
    """List Job Samples

     A GRPO/GSPO job's sample completions with their rewards, one sampled step at a time (the latest
    unless
    `step` says which); `steps` lists the steps that have them.

    Args:
        job (str):
        step (int | None | Unset):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CompletionSamplesPage | ErrorBody
    """

    return sync_detailed(
        job=job,
        client=client,
        step=step,
        offset=offset,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    step: int | None | Unset = UNSET,
    offset: int | Unset = 0,
    limit: int | Unset = 20,
) -> Response[CompletionSamplesPage | ErrorBody]:
    """List Job Samples

     A GRPO/GSPO job's sample completions with their rewards, one sampled step at a time (the latest
    unless
    `step` says which); `steps` lists the steps that have them.

    Args:
        job (str):
        step (int | None | Unset):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CompletionSamplesPage | ErrorBody]
    """

    kwargs = _get_kwargs(
        job=job,
        step=step,
        offset=offset,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    step: int | None | Unset = UNSET,
    offset: int | Unset = 0,
    limit: int | Unset = 20,
) -> CompletionSamplesPage | ErrorBody | None:
    """List Job Samples

     A GRPO/GSPO job's sample completions with their rewards, one sampled step at a time (the latest
    unless
    `step` says which); `steps` lists the steps that have them.

    Args:
        job (str):
        step (int | None | Unset):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CompletionSamplesPage | ErrorBody
    """

    return (
        await asyncio_detailed(
            job=job,
            client=client,
            step=step,
            offset=offset,
            limit=limit,
        )
    ).parsed
