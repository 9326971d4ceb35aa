from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.finding_read import FindingRead
from ...models.get_findings_severity_type_0_item import GetFindingsSeverityType0Item
from ...types import UNSET, Response, Unset


def _get_kwargs(
    job: str,
    *,
    kind: list[str] | None | Unset = UNSET,
    severity: list[GetFindingsSeverityType0Item] | None | Unset = UNSET,
    start_step: int | None | Unset = UNSET,
    end_step: int | None | Unset = UNSET,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    json_kind: list[str] | None | Unset
    if isinstance(kind, Unset):
        json_kind = UNSET
    elif isinstance(kind, list):
        json_kind = kind

    else:
        json_kind = kind
    params["kind"] = json_kind

    json_severity: list[str] | None | Unset
    if isinstance(severity, Unset):
        json_severity = UNSET
    elif isinstance(severity, list):
        json_severity = []
        for severity_type_0_item_data in severity:
            severity_type_0_item = severity_type_0_item_data.value
            json_severity.append(severity_type_0_item)

    else:
        json_severity = severity
    params["severity"] = json_severity

    json_start_step: int | None | Unset
    if isinstance(start_step, Unset):
        json_start_step = UNSET
    else:
        json_start_step = start_step
    params["start_step"] = json_start_step

    json_end_step: int | None | Unset
    if isinstance(end_step, Unset):
        json_end_step = UNSET
    else:
        json_end_step = end_step
    params["end_step"] = json_end_step

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/jobs/{job}/findings".format(
            job=quote(str(job), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | list[FindingRead] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = FindingRead.from_dict(response_200_item_data)

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
) -> Response[ErrorBody | list[FindingRead]]:
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
    kind: list[str] | None | Unset = UNSET,
    severity: list[GetFindingsSeverityType0Item] | None | Unset = UNSET,
    start_step: int | None | Unset = UNSET,
    end_step: int | None | Unset = UNSET,
) -> Response[ErrorBody | list[FindingRead]]:
    """Get Findings

     The job's findings, worst first; a step range keeps those whose own step range overlaps it.

    Args:
        job (str):
        kind (list[str] | None | Unset): Only these kinds (repeat).
        severity (list[GetFindingsSeverityType0Item] | None | Unset): Only these severities.
        start_step (int | None | Unset):
        end_step (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[FindingRead]]
    """

    kwargs = _get_kwargs(
        job=job,
        kind=kind,
        severity=severity,
        start_step=start_step,
        end_step=end_step,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    kind: list[str] | None | Unset = UNSET,
    severity: list[GetFindingsSeverityType0Item] | None | Unset = UNSET,
    start_step: int | None | Unset = UNSET,
    end_step: int | None | Unset = UNSET,
) -> ErrorBody | list[FindingRead] | None:
    """Get Findings

     The job's findings, worst first; a step range keeps those whose own step range overlaps it.

    Args:
        job (str):
        kind (list[str] | None | Unset): Only these kinds (repeat).
        severity (list[GetFindingsSeverityType0Item] | None | Unset): Only these severities.
        start_step (int | None | Unset):
        end_step (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[FindingRead]
    """

    return sync_detailed(
        job=job,
        client=client,
        kind=kind,
        severity=severity,
        start_step=start_step,
        end_step=end_step,
    ).parsed


async def asyncio_detailed(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    kind: list[str] | None | Unset = UNSET,
    severity: list[GetFindingsSeverityType0Item] | None | Unset = UNSET,
    start_step: int | None | Unset = UNSET,
    end_step: int | None | Unset = UNSET,
) -> Response[ErrorBody | list[FindingRead]]:
    """Get Findings

     The job's findings, worst first; a step range keeps those whose own step range overlaps it.

    Args:
        job (str):
        kind (list[str] | None | Unset): Only these kinds (repeat).
        severity (list[GetFindingsSeverityType0Item] | None | Unset): Only these severities.
        start_step (int | None | Unset):
        end_step (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[FindingRead]]
    """

    kwargs = _get_kwargs(
        job=job,
        kind=kind,
        severity=severity,
        start_step=start_step,
        end_step=end_step,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job: str,
    *,
    client: AuthenticatedClient | Client,
    kind: list[str] | None | Unset = UNSET,
    severity: list[GetFindingsSeverityType0Item] | None | Unset = UNSET,
    start_step: int | None | Unset = UNSET,
    end_step: int | None | Unset = UNSET,
) -> ErrorBody | list[FindingRead] | None:
    """Get Findings

     The job's findings, worst first; a step range keeps those whose own step range overlaps it.

    Args:
        job (str):
        kind (list[str] | None | Unset): Only these kinds (repeat).
        severity (list[GetFindingsSeverityType0Item] | None | Unset): Only these severities.
        start_step (int | None | Unset):
        end_step (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[FindingRead]
    """

    return (
        await asyncio_detailed(
            job=job,
            client=client,
            kind=kind,
            severity=severity,
            start_step=start_step,
            end_step=end_step,
        )
    ).parsed
