from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ColumnStats")


@_attrs_define
class ColumnStats:
    """
    Attributes:
        blanks (int):
        dtype (str):
        name (str):
        null_rate (float):
        nulls (int):
    """

    blanks: int
    dtype: str
    name: str
    null_rate: float
    nulls: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        blanks = self.blanks

        dtype = self.dtype

        name = self.name

        null_rate = self.null_rate

        nulls = self.nulls

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "blanks": blanks,
                "dtype": dtype,
                "name": name,
                "null_rate": null_rate,
                "nulls": nulls,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        blanks = d.pop("blanks")

        dtype = d.pop("dtype")

        name = d.pop("name")

        null_rate = d.pop("null_rate")

        nulls = d.pop("nulls")

        column_stats = cls(
            blanks=blanks,
            dtype=dtype,
            name=name,
            null_rate=null_rate,
            nulls=nulls,
        )

        column_stats.additional_properties = d
        return column_stats

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
