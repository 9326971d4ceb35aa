from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.dataset_register_kind import DatasetRegisterKind
from ..models.dataset_register_preset import DatasetRegisterPreset
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dataset_register_field_mapping import DatasetRegisterFieldMapping
    from ..models.share_gpt_tags import ShareGptTags


T = TypeVar("T", bound="DatasetRegister")


@_attrs_define
class DatasetRegister:
    """
    Attributes:
        kind (DatasetRegisterKind):
        name (str):
        path (str): A data file, or a directory of data files of one format, under the data roots.
        allow_invalid_rows (bool | Unset): Register even if some rows are invalid (they are counted and audited).
            Default: False.
        description (str | Unset):  Default: ''.
        drop_columns (list[str] | Unset): Columns left out of every row on purpose (media columns: multimodal training
            is not supported); the dataset's record keeps them as `dropped_columns`.
        field_mapping (DatasetRegisterFieldMapping | Unset): Field read → the file's column or a dotted path into it,
            e.g. {"prompt": "question"} or {"solution": "reward_model.ground_truth"}; LLaMA-Factory's dataset_info.json
            `columns` are read too.
        label_fields (list[str] | Unset): Columns whose value distribution matters.
        preset (DatasetRegisterPreset | Unset): The shape of the rows: a format preset, 'platform' (the platform's own
            fields), or 'auto': the platform's own when the first rows fit them, else the one preset they fit. Default:
            DatasetRegisterPreset.AUTO.
        split (None | str | Unset): Of a folder holding splits, the one to register (default: train).
        tags (ShareGptTags | Unset): LLaMA-Factory's `tags` of a sharegpt dataset: the keys of a turn and the role each
            tag stands for.
    """

    kind: DatasetRegisterKind
    name: str
    path: str
    allow_invalid_rows: bool | Unset = False
    description: str | Unset = ""
    drop_columns: list[str] | Unset = UNSET
    field_mapping: DatasetRegisterFieldMapping | Unset = UNSET
    label_fields: list[str] | Unset = UNSET
    preset: DatasetRegisterPreset | Unset = DatasetRegisterPreset.AUTO
    split: None | str | Unset = UNSET
    tags: ShareGptTags | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        name = self.name

        path = self.path

        allow_invalid_rows = self.allow_invalid_rows

        description = self.description

        drop_columns: list[str] | Unset = UNSET
        if not isinstance(self.drop_columns, Unset):
            drop_columns = self.drop_columns

        field_mapping: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_mapping, Unset):
            field_mapping = self.field_mapping.to_dict()

        label_fields: list[str] | Unset = UNSET
        if not isinstance(self.label_fields, Unset):
            label_fields = self.label_fields

        preset: str | Unset = UNSET
        if not isinstance(self.preset, Unset):
            preset = self.preset.value

        split: None | str | Unset
        if isinstance(self.split, Unset):
            split = UNSET
        else:
            split = self.split

        tags: dict[str, Any] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "name": name,
                "path": path,
            }
        )
        if allow_invalid_rows is not UNSET:
            field_dict["allow_invalid_rows"] = allow_invalid_rows
        if description is not UNSET:
            field_dict["description"] = description
        if drop_columns is not UNSET:
            field_dict["drop_columns"] = drop_columns
        if field_mapping is not UNSET:
            field_dict["field_mapping"] = field_mapping
        if label_fields is not UNSET:
            field_dict["label_fields"] = label_fields
        if preset is not UNSET:
            field_dict["preset"] = preset
        if split is not UNSET:
            field_dict["split"] = split
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dataset_register_field_mapping import DatasetRegisterFieldMapping  # noqa: PLC0415
        from ..models.share_gpt_tags import ShareGptTags  # noqa: PLC0415

        d = dict(src_dict)
        kind = DatasetRegisterKind(d.pop("kind"))

        name = d.pop("name")

        path = d.pop("path")

        allow_invalid_rows = d.pop("allow_invalid_rows", UNSET)

        description = d.pop("description", UNSET)

        drop_columns = cast(list[str], d.pop("drop_columns", UNSET))

        _field_mapping = d.pop("field_mapping", UNSET)
        field_mapping: DatasetRegisterFieldMapping | Unset
        if isinstance(_field_mapping, Unset):
            field_mapping = UNSET
        else:
            field_mapping = DatasetRegisterFieldMapping.from_dict(_field_mapping)

        label_fields = cast(list[str], d.pop("label_fields", UNSET))

        _preset = d.pop("preset", UNSET)
        preset: DatasetRegisterPreset | Unset
        if isinstance(_preset, Unset):
            preset = UNSET
        else:
            preset = DatasetRegisterPreset(_preset)

        def _parse_split(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        split = _parse_split(d.pop("split", UNSET))

        _tags = d.pop("tags", UNSET)
        tags: ShareGptTags | Unset
        if isinstance(_tags, Unset):
            tags = UNSET
        else:
            tags = ShareGptTags.from_dict(_tags)

        dataset_register = cls(
            kind=kind,
            name=name,
            path=path,
            allow_invalid_rows=allow_invalid_rows,
            description=description,
            drop_columns=drop_columns,
            field_mapping=field_mapping,
            label_fields=label_fields,
            preset=preset,
            split=split,
            tags=tags,
        )

        return dataset_register
