from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.data_format_preset_type_0 import DataFormatPresetType0
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.data_format_field_mapping import DataFormatFieldMapping
    from ..models.share_gpt_tags import ShareGptTags


T = TypeVar("T", bound="DataFormat")


@_attrs_define
class DataFormat:
    """
    Attributes:
        drop_columns (list[str] | Unset): Columns removed from every row before anything reads it (media columns the
            platform does not train on, dropped on purpose).
        field_mapping (DataFormatFieldMapping | Unset): Field read → the file's column or a dotted path into it, e.g.
            {"prompt": "question"} or {"solution": "reward_model.ground_truth"}; LLaMA-Factory's dataset_info.json `columns`
            are read too.
        preset (DataFormatPresetType0 | None | Unset): The shape of the rows; none: the platform's own.
        split (None | str | Unset): The split of a folder holding several (train, validation, test).
        tags (ShareGptTags | Unset): LLaMA-Factory's `tags` of a sharegpt dataset: the keys of a turn and the role each
            tag stands for.
    """

    drop_columns: list[str] | Unset = UNSET
    field_mapping: DataFormatFieldMapping | Unset = UNSET
    preset: DataFormatPresetType0 | None | Unset = UNSET
    split: None | str | Unset = UNSET
    tags: ShareGptTags | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        drop_columns: list[str] | Unset = UNSET
        if not isinstance(self.drop_columns, Unset):
            drop_columns = self.drop_columns

        field_mapping: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_mapping, Unset):
            field_mapping = self.field_mapping.to_dict()

        preset: None | str | Unset
        if isinstance(self.preset, Unset):
            preset = UNSET
        elif isinstance(self.preset, DataFormatPresetType0):
            preset = self.preset.value
        else:
            preset = self.preset

        split: None | str | Unset
        if isinstance(self.split, Unset):
            split = UNSET
        else:
            split = self.split

        tags: dict[str, Any] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if drop_columns is not UNSET:
            field_dict["drop_columns"] = drop_columns
        if field_mapping is not UNSET:
            field_dict["field_mapping"] = field_mapping
        if preset is not UNSET:
            field_dict["preset"] = preset
        if split is not UNSET:
            field_dict["split"] = split
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.data_format_field_mapping import DataFormatFieldMapping  # noqa: PLC0415
        from ..models.share_gpt_tags import ShareGptTags  # noqa: PLC0415

        d = dict(src_dict)
        drop_columns = cast(list[str], d.pop("drop_columns", UNSET))

        _field_mapping = d.pop("field_mapping", UNSET)
        field_mapping: DataFormatFieldMapping | Unset
        if isinstance(_field_mapping, Unset):
            field_mapping = UNSET
        else:
            field_mapping = DataFormatFieldMapping.from_dict(_field_mapping)

        def _parse_preset(data: object) -> DataFormatPresetType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                preset_type_0 = DataFormatPresetType0(data)

                return preset_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DataFormatPresetType0 | None | Unset, data)

        preset = _parse_preset(d.pop("preset", UNSET))

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

        data_format = cls(
            drop_columns=drop_columns,
            field_mapping=field_mapping,
            preset=preset,
            split=split,
            tags=tags,
        )

        return data_format
