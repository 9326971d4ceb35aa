from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.dataset_read import DatasetRead
from ...models.error_body import ErrorBody
from ...models.upload_dataset_kind import UploadDatasetKind
from ...models.upload_dataset_preset import UploadDatasetPreset
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    name: str,
    kind: UploadDatasetKind,
    filename: str,
    description: str | Unset = "",
    field: list[str] | Unset = UNSET,
    label_fields: list[str] | Unset = UNSET,
    preset: UploadDatasetPreset | Unset = UploadDatasetPreset.AUTO,
    tag: list[str] | Unset = UNSET,
    allow_invalid_rows: bool | Unset = False,
    drop_columns: list[str] | Unset = UNSET,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    params["name"] = name

    json_kind = kind.value
    params["kind"] = json_kind

    params["filename"] = filename

    params["description"] = description

    json_field: list[str] | Unset = UNSET
    if not isinstance(field, Unset):
        json_field = field

    params["field"] = json_field

    json_label_fields: list[str] | Unset = UNSET
    if not isinstance(label_fields, Unset):
        json_label_fields = label_fields

    params["label_fields"] = json_label_fields

    json_preset: str | Unset = UNSET
    if not isinstance(preset, Unset):
        json_preset = preset.value

    params["preset"] = json_preset

    json_tag: list[str] | Unset = UNSET
    if not isinstance(tag, Unset):
        json_tag = tag

    params["tag"] = json_tag

    params["allow_invalid_rows"] = allow_invalid_rows

    json_drop_columns: list[str] | Unset = UNSET
    if not isinstance(drop_columns, Unset):
        json_drop_columns = drop_columns

    params["drop_columns"] = json_drop_columns

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/datasets/upload",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DatasetRead | ErrorBody | None:
    if response.status_code == 201:
        response_201 = DatasetRead.from_dict(response.json())

        return response_201

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[DatasetRead | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    name: str,
    kind: UploadDatasetKind,
    filename: str,
    description: str | Unset = "",
    field: list[str] | Unset = UNSET,
    label_fields: list[str] | Unset = UNSET,
    preset: UploadDatasetPreset | Unset = UploadDatasetPreset.AUTO,
    tag: list[str] | Unset = UNSET,
    allow_invalid_rows: bool | Unset = False,
    drop_columns: list[str] | Unset = UNSET,
) -> Response[DatasetRead | ErrorBody]:
    """Upload Dataset

     The request body is the file itself (any content type), streamed to disk; it is registered only if
    it
    reads and validates, and refused whole otherwise.

    Args:
        name (str):
        kind (UploadDatasetKind):
        filename (str): The file's name: .json, .jsonl, .parquet, .csv or .arrow.
        description (str | Unset):  Default: ''.
        field (list[str] | Unset): Field mapping entries FIELD=COLUMN, e.g. prompt=question.
        label_fields (list[str] | Unset):
        preset (UploadDatasetPreset | Unset): The rows' format preset; auto detects it. Default:
            UploadDatasetPreset.AUTO.
        tag (list[str] | Unset): Sharegpt tags KEY=VALUE, e.g. role_tag=role.
        allow_invalid_rows (bool | Unset):  Default: False.
        drop_columns (list[str] | Unset): A column left out of every row on purpose (a media
            column); repeatable.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DatasetRead | ErrorBody]
    """

    kwargs = _get_kwargs(
        name=name,
        kind=kind,
        filename=filename,
        description=description,
        field=field,
        label_fields=label_fields,
        preset=preset,
        tag=tag,
        allow_invalid_rows=allow_invalid_rows,
        drop_columns=drop_columns,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    name: str,
    kind: UploadDatasetKind,
    filename: str,
    description: str | Unset = "",
    field: list[str] | Unset = UNSET,
    label_fields: list[str] | Unset = UNSET,
    preset: UploadDatasetPreset | Unset = UploadDatasetPreset.AUTO,
    tag: list[str] | Unset = UNSET,
    allow_invalid_rows: bool | Unset = False,
    drop_columns: list[str] | Unset = UNSET,
) -> DatasetRead | ErrorBody | None:
    """Upload Dataset

     The request body is the file itself (any content type), streamed to disk; it is registered only if
    it
    reads and validates, and refused whole otherwise.

    Args:
        name (str):
        kind (UploadDatasetKind):
        filename (str): The file's name: .json, .jsonl, .parquet, .csv or .arrow.
        description (str | Unset):  Default: ''.
        field (list[str] | Unset): Field mapping entries FIELD=COLUMN, e.g. prompt=question.
        label_fields (list[str] | Unset):
        preset (UploadDatasetPreset | Unset): The rows' format preset; auto detects it. Default:
            UploadDatasetPreset.AUTO.
        tag (list[str] | Unset): Sharegpt tags KEY=VALUE, e.g. role_tag=role.
        allow_invalid_rows (bool | Unset):  Default: False.
        drop_columns (list[str] | Unset): A column left out of every row on purpose (a media
            column); repeatable.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DatasetRead | ErrorBody
    """

    return sync_detailed(
        client=client,
        name=name,
        kind=kind,
        filename=filename,
        description=description,
        field=field,
        label_fields=label_fields,
        preset=preset,
        tag=tag,
        allow_invalid_rows=allow_invalid_rows,
        drop_columns=drop_columns,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    name: str,
    kind: UploadDatasetKind,
    filename: str,
    description: str | Unset = "",
    field: list[str] | Unset = UNSET,
    label_fields: list[str] | Unset = UNSET,
    preset: UploadDatasetPreset | Unset = UploadDatasetPreset.AUTO,
    tag: list[str] | Unset = UNSET,
    allow_invalid_rows: bool | Unset = False,
    drop_columns: list[str] | Unset = UNSET,
) -> Response[DatasetRead | ErrorBody]:
    """Upload Dataset

     The request body is the file itself (any content type), streamed to disk; it is registered only if
    it
    reads and validates, and refused whole otherwise.

    Args:
        name (str):
        kind (UploadDatasetKind):
        filename (str): The file's name: .json, .jsonl, .parquet, .csv or .arrow.
        description (str | Unset):  Default: ''.
        field (list[str] | Unset): Field mapping entries FIELD=COLUMN, e.g. prompt=question.
        label_fields (list[str] | Unset):
        preset (UploadDatasetPreset | Unset): The rows' format preset; auto detects it. Default:
            UploadDatasetPreset.AUTO.
        tag (list[str] | Unset): Sharegpt tags KEY=VALUE, e.g. role_tag=role.
        allow_invalid_rows (bool | Unset):  Default: False.
        drop_columns (list[str] | Unset): A column left out of every row on purpose (a media
            column); repeatable.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DatasetRead | ErrorBody]
    """

    kwargs = _get_kwargs(
        name=name,
        kind=kind,
        filename=filename,
        description=description,
        field=field,
        label_fields=label_fields,
        preset=preset,
        tag=tag,
        allow_invalid_rows=allow_invalid_rows,
        drop_columns=drop_columns,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    name: str,
    kind: UploadDatasetKind,
    filename: str,
    description: str | Unset = "",
    field: list[str] | Unset = UNSET,
    label_fields: list[str] | Unset = UNSET,
    preset: UploadDatasetPreset | Unset = UploadDatasetPreset.AUTO,
    tag: list[str] | Unset = UNSET,
    allow_invalid_rows: bool | Unset = False,
    drop_columns: list[str] | Unset = UNSET,
) -> DatasetRead | ErrorBody | None:
    """Upload Dataset

     The request body is the file itself (any content type), streamed to disk; it is registered only if
    it
    reads and validates, and refused whole otherwise.

    Args:
        name (str):
        kind (UploadDatasetKind):
        filename (str): The file's name: .json, .jsonl, .parquet, .csv or .arrow.
        description (str | Unset):  Default: ''.
        field (list[str] | Unset): Field mapping entries FIELD=COLUMN, e.g. prompt=question.
        label_fields (list[str] | Unset):
        preset (UploadDatasetPreset | Unset): The rows' format preset; auto detects it. Default:
            UploadDatasetPreset.AUTO.
        tag (list[str] | Unset): Sharegpt tags KEY=VALUE, e.g. role_tag=role.
        allow_invalid_rows (bool | Unset):  Default: False.
        drop_columns (list[str] | Unset): A column left out of every row on purpose (a media
            column); repeatable.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DatasetRead | ErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            name=name,
            kind=kind,
            filename=filename,
            description=description,
            field=field,
            label_fields=label_fields,
            preset=preset,
            tag=tag,
            allow_invalid_rows=allow_invalid_rows,
            drop_columns=drop_columns,
        )
    ).parsed
