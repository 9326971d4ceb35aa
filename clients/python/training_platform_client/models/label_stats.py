from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.label_value import LabelValue


T = TypeVar("T", bound="LabelStats")


@_attrs_define
class LabelStats:
    """
    Attributes:
        distinct (int):
        field (str):
        other_count (int):
        values (list[LabelValue]):
    """

    distinct: int
    field: str
    other_count: int
    values: list[LabelValue]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        distinct = self.distinct

        field = self.field

        other_count = self.other_count

        values = []
        for values_item_data in self.values:
            values_item = values_item_data.to_dict()
            values.append(values_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "distinct": distinct,
                "field": field,
                "other_count": other_count,
                "values": values,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.label_value import LabelValue  # noqa: PLC0415

        d = dict(src_dict)
        distinct = d.pop("distinct")

        field = d.pop("field")

        other_count = d.pop("other_count")

        values = []
        _values = d.pop("values")
        for values_item_data in _values:
            values_item = LabelValue.from_dict(values_item_data)

            values.append(values_item)

        label_stats = cls(
            distinct=distinct,
            field=field,
            other_count=other_count,
            values=values,
        )

        label_stats.additional_properties = d
        return label_stats

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
