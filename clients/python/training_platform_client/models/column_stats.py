from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.column_stats_item_type_type_0 import ColumnStatsItemTypeType0
from ..models.column_stats_type import ColumnStatsType
from ..types import UNSET, Unset

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
        type_ (ColumnStatsType):
        item_type (ColumnStatsItemTypeType0 | None | Unset):
    """

    blanks: int
    dtype: str
    name: str
    null_rate: float
    nulls: int
    type_: ColumnStatsType
    item_type: ColumnStatsItemTypeType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        blanks = self.blanks

        dtype = self.dtype

        name = self.name

        null_rate = self.null_rate

        nulls = self.nulls

        type_ = self.type_.value

        item_type: None | str | Unset
        if isinstance(self.item_type, Unset):
            item_type = UNSET
        elif isinstance(self.item_type, ColumnStatsItemTypeType0):
            item_type = self.item_type.value
        else:
            item_type = self.item_type

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "blanks": blanks,
                "dtype": dtype,
                "name": name,
                "null_rate": null_rate,
                "nulls": nulls,
                "type": type_,
            }
        )
        if item_type is not UNSET:
            field_dict["item_type"] = item_type

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        blanks = d.pop("blanks")

        dtype = d.pop("dtype")

        name = d.pop("name")

        null_rate = d.pop("null_rate")

        nulls = d.pop("nulls")

        type_ = ColumnStatsType(d.pop("type"))

        def _parse_item_type(data: object) -> ColumnStatsItemTypeType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                item_type_type_0 = ColumnStatsItemTypeType0(data)

                return item_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ColumnStatsItemTypeType0 | None | Unset, data)

        item_type = _parse_item_type(d.pop("item_type", UNSET))

        column_stats = cls(
            blanks=blanks,
            dtype=dtype,
            name=name,
            null_rate=null_rate,
            nulls=nulls,
            type_=type_,
            item_type=item_type,
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
