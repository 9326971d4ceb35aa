from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.step_diagnosis import StepDiagnosis
from ...types import Response


def _get_kwargs(
    job: str,
    step: int,
) -> dict[str, Any]:
    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/jobs/{job}/health/steps/{step}".format(
            job=quote(str(job), safe=""),
            step=quote(str(step), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | StepDiagnosis | None:
    if response.status_code == 200:
        response_200 = StepDiagnosis.from_dict(response.json())

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
) -> Response[ErrorBody | StepDiagnosis]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    job: str,
    step: int,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | StepDiagnosis]:
    """Diagnose Step

     What the detectors say at one step, with the job's history before it.

    Args:
        job (str):
        step (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | StepDiagnosis]
    """

    kwargs = _get_kwargs(
        job=job,
        step=step,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job: str,
    step: int,
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | StepDiagnosis | None:
    """Diagnose Step

     What the detectors say at one step, with the job's history before it.

    Args:
        job (str):
        step (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | StepDiagnosis
    """

    return sync_detailed(
        job=job,
        step=step,
        client=client,
    ).parsed


async def asyncio_detailed(
    job: str,
    step: int,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | StepDiagnosis]:
    """Diagnose Step

     What the detectors say at one step, with the job's history before it.

    Args:
        job (str):
        step (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | StepDiagnosis]
    """

    kwargs = _get_kwargs(
        job=job,
        step=step,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job: str,
    step: int,
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | StepDiagnosis | None:
    """Diagnose Step

     What the detectors say at one step, with the job's history before it.

    Args:
        job (str):
        step (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | StepDiagnosis
    """

    return (
        await asyncio_detailed(
            job=job,
            step=step,
            client=client,
        )
    ).parsed
