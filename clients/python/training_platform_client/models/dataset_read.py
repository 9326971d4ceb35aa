from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.dataset_read_field_mapping import DatasetReadFieldMapping
    from ..models.dataset_read_tags_type_0 import DatasetReadTagsType0


T = TypeVar("T", bound="DatasetRead")


@_attrs_define
class DatasetRead:
    """
    Attributes:
        columns (list[str]):
        content_hash (None | str):
        created_at (datetime.datetime):
        derivation (str):
        description (str):
        dropped_columns (list[str]):
        field_mapping (DatasetReadFieldMapping):
        file_format (str):
        id (str):
        kind (str):
        label_fields (list[str]):
        lineage_id (None | str):
        name (str):
        num_invalid (int):
        num_rows (int):
        original_filename (None | str):
        parent_id (None | str):
        path (str):
        preset (None | str):
        size_bytes (int):
        source (str):
        split (None | str):
        splits (list[str]):
        tags (DatasetReadTagsType0 | None):
        unused_columns (list[str]):
        version (int):
    """

    columns: list[str]
    content_hash: None | str
    created_at: datetime.datetime
    derivation: str
    description: str
    dropped_columns: list[str]
    field_mapping: DatasetReadFieldMapping
    file_format: str
    id: str
    kind: str
    label_fields: list[str]
    lineage_id: None | str
    name: str
    num_invalid: int
    num_rows: int
    original_filename: None | str
    parent_id: None | str
    path: str
    preset: None | str
    size_bytes: int
    source: str
    split: None | str
    splits: list[str]
    tags: DatasetReadTagsType0 | None
    unused_columns: list[str]
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.dataset_read_tags_type_0 import DatasetReadTagsType0  # noqa: PLC0415

        columns = self.columns

        content_hash: None | str
        content_hash = self.content_hash

        created_at = self.created_at.isoformat()

        derivation = self.derivation

        description = self.description

        dropped_columns = self.dropped_columns

        field_mapping = self.field_mapping.to_dict()

        file_format = self.file_format

        id = self.id

        kind = self.kind

        label_fields = self.label_fields

        lineage_id: None | str
        lineage_id = self.lineage_id

        name = self.name

        num_invalid = self.num_invalid

        num_rows = self.num_rows

        original_filename: None | str
        original_filename = self.original_filename

        parent_id: None | str
        parent_id = self.parent_id

        path = self.path

        preset: None | str
        preset = self.preset

        size_bytes = self.size_bytes

        source = self.source

        split: None | str
        split = self.split

        splits = self.splits

        tags: dict[str, Any] | None
        if isinstance(self.tags, DatasetReadTagsType0):
            tags = self.tags.to_dict()
        else:
            tags = self.tags

        unused_columns = self.unused_columns

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "columns": columns,
                "content_hash": content_hash,
                "created_at": created_at,
                "derivation": derivation,
                "description": description,
                "dropped_columns": dropped_columns,
                "field_mapping": field_mapping,
                "file_format": file_format,
                "id": id,
                "kind": kind,
                "label_fields": label_fields,
                "lineage_id": lineage_id,
                "name": name,
                "num_invalid": num_invalid,
                "num_rows": num_rows,
                "original_filename": original_filename,
                "parent_id": parent_id,
                "path": path,
                "preset": preset,
                "size_bytes": size_bytes,
                "source": source,
                "split": split,
                "splits": splits,
                "tags": tags,
                "unused_columns": unused_columns,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dataset_read_field_mapping import DatasetReadFieldMapping  # noqa: PLC0415
        from ..models.dataset_read_tags_type_0 import DatasetReadTagsType0  # noqa: PLC0415

        d = dict(src_dict)
        columns = cast(list[str], d.pop("columns"))

        def _parse_content_hash(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        content_hash = _parse_content_hash(d.pop("content_hash"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        derivation = d.pop("derivation")

        description = d.pop("description")

        dropped_columns = cast(list[str], d.pop("dropped_columns"))

        field_mapping = DatasetReadFieldMapping.from_dict(d.pop("field_mapping"))

        file_format = d.pop("file_format")

        id = d.pop("id")

        kind = d.pop("kind")

        label_fields = cast(list[str], d.pop("label_fields"))

        def _parse_lineage_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        lineage_id = _parse_lineage_id(d.pop("lineage_id"))

        name = d.pop("name")

        num_invalid = d.pop("num_invalid")

        num_rows = d.pop("num_rows")

        def _parse_original_filename(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        original_filename = _parse_original_filename(d.pop("original_filename"))

        def _parse_parent_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        parent_id = _parse_parent_id(d.pop("parent_id"))

        path = d.pop("path")

        def _parse_preset(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        preset = _parse_preset(d.pop("preset"))

        size_bytes = d.pop("size_bytes")

        source = d.pop("source")

        def _parse_split(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        split = _parse_split(d.pop("split"))

        splits = cast(list[str], d.pop("splits"))

        def _parse_tags(data: object) -> DatasetReadTagsType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tags_type_0 = DatasetReadTagsType0.from_dict(data)

                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DatasetReadTagsType0 | None, data)

        tags = _parse_tags(d.pop("tags"))

        unused_columns = cast(list[str], d.pop("unused_columns"))

        version = d.pop("version")

        dataset_read = cls(
            columns=columns,
            content_hash=content_hash,
            created_at=created_at,
            derivation=derivation,
            description=description,
            dropped_columns=dropped_columns,
            field_mapping=field_mapping,
            file_format=file_format,
            id=id,
            kind=kind,
            label_fields=label_fields,
            lineage_id=lineage_id,
            name=name,
            num_invalid=num_invalid,
            num_rows=num_rows,
            original_filename=original_filename,
            parent_id=parent_id,
            path=path,
            preset=preset,
            size_bytes=size_bytes,
            source=source,
            split=split,
            splits=splits,
            tags=tags,
            unused_columns=unused_columns,
            version=version,
        )

        dataset_read.additional_properties = d
        return dataset_read

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
