from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.dataset_update_preset_type_0 import DatasetUpdatePresetType0
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dataset_update_field_mapping_type_0 import DatasetUpdateFieldMappingType0
    from ..models.share_gpt_tags import ShareGptTags


T = TypeVar("T", bound="DatasetUpdate")


@_attrs_define
class DatasetUpdate:
    """
    Attributes:
        description (None | str | Unset):
        field_mapping (DatasetUpdateFieldMappingType0 | None | Unset):
        label_fields (list[str] | None | Unset):
        preset (DatasetUpdatePresetType0 | None | Unset): A new format preset ('auto' detects it again, 'platform' reads
            the platform's own fields); the dataset's audits and vector index are forgotten when its format changes.
        tags (None | ShareGptTags | Unset): New sharegpt keys and role tags.
    """

    description: None | str | Unset = UNSET
    field_mapping: DatasetUpdateFieldMappingType0 | None | Unset = UNSET
    label_fields: list[str] | None | Unset = UNSET
    preset: DatasetUpdatePresetType0 | None | Unset = UNSET
    tags: None | ShareGptTags | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.dataset_update_field_mapping_type_0 import DatasetUpdateFieldMappingType0  # noqa: PLC0415
        from ..models.share_gpt_tags import ShareGptTags  # noqa: PLC0415

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        field_mapping: dict[str, Any] | None | Unset
        if isinstance(self.field_mapping, Unset):
            field_mapping = UNSET
        elif isinstance(self.field_mapping, DatasetUpdateFieldMappingType0):
            field_mapping = self.field_mapping.to_dict()
        else:
            field_mapping = self.field_mapping

        label_fields: list[str] | None | Unset
        if isinstance(self.label_fields, Unset):
            label_fields = UNSET
        elif isinstance(self.label_fields, list):
            label_fields = self.label_fields

        else:
            label_fields = self.label_fields

        preset: None | str | Unset
        if isinstance(self.preset, Unset):
            preset = UNSET
        elif isinstance(self.preset, DatasetUpdatePresetType0):
            preset = self.preset.value
        else:
            preset = self.preset

        tags: dict[str, Any] | None | Unset
        if isinstance(self.tags, Unset):
            tags = UNSET
        elif isinstance(self.tags, ShareGptTags):
            tags = self.tags.to_dict()
        else:
            tags = self.tags

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if description is not UNSET:
            field_dict["description"] = description
        if field_mapping is not UNSET:
            field_dict["field_mapping"] = field_mapping
        if label_fields is not UNSET:
            field_dict["label_fields"] = label_fields
        if preset is not UNSET:
            field_dict["preset"] = preset
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dataset_update_field_mapping_type_0 import DatasetUpdateFieldMappingType0  # noqa: PLC0415
        from ..models.share_gpt_tags import ShareGptTags  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_field_mapping(data: object) -> DatasetUpdateFieldMappingType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                field_mapping_type_0 = DatasetUpdateFieldMappingType0.from_dict(data)

                return field_mapping_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DatasetUpdateFieldMappingType0 | None | Unset, data)

        field_mapping = _parse_field_mapping(d.pop("field_mapping", UNSET))

        def _parse_label_fields(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                label_fields_type_0 = cast(list[str], data)

                return label_fields_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        label_fields = _parse_label_fields(d.pop("label_fields", UNSET))

        def _parse_preset(data: object) -> DatasetUpdatePresetType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                preset_type_0 = DatasetUpdatePresetType0(data)

                return preset_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DatasetUpdatePresetType0 | None | Unset, data)

        preset = _parse_preset(d.pop("preset", UNSET))

        def _parse_tags(data: object) -> None | ShareGptTags | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tags_type_0 = ShareGptTags.from_dict(data)

                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ShareGptTags | Unset, data)

        tags = _parse_tags(d.pop("tags", UNSET))

        dataset_update = cls(
            description=description,
            field_mapping=field_mapping,
            label_fields=label_fields,
            preset=preset,
            tags=tags,
        )

        return dataset_update
