from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.dataset_kind_read_kind import DatasetKindReadKind

T = TypeVar("T", bound="DatasetKindRead")


@_attrs_define
class DatasetKindRead:
    """A kind of dataset as the UI offers it (datafiles/kinds.py): the fields a column may be mapped to, and the
    format presets that read it.

        Attributes:
            fields (list[str]):
            kind (DatasetKindReadKind):
            presets (list[str]):
    """

    fields: list[str]
    kind: DatasetKindReadKind
    presets: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        fields = self.fields

        kind = self.kind.value

        presets = self.presets

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "fields": fields,
                "kind": kind,
                "presets": presets,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        fields = cast(list[str], d.pop("fields"))

        kind = DatasetKindReadKind(d.pop("kind"))

        presets = cast(list[str], d.pop("presets"))

        dataset_kind_read = cls(
            fields=fields,
            kind=kind,
            presets=presets,
        )

        dataset_kind_read.additional_properties = d
        return dataset_kind_read

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
