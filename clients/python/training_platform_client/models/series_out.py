from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SeriesOut")


@_attrs_define
class SeriesOut:
    """
    Attributes:
        downsampled (bool):
        key (str):
        steps (list[int]):
        total_points (int):
        values (list[float | str]):
    """

    downsampled: bool
    key: str
    steps: list[int]
    total_points: int
    values: list[float | str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        downsampled = self.downsampled

        key = self.key

        steps = self.steps

        total_points = self.total_points

        values = []
        for values_item_data in self.values:
            values_item: float | str
            values_item = values_item_data
            values.append(values_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "downsampled": downsampled,
                "key": key,
                "steps": steps,
                "total_points": total_points,
                "values": values,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        downsampled = d.pop("downsampled")

        key = d.pop("key")

        steps = cast(list[int], d.pop("steps"))

        total_points = d.pop("total_points")

        values = []
        _values = d.pop("values")
        for values_item_data in _values:

            def _parse_values_item(data: object) -> float | str:
                return cast(float | str, data)

            values_item = _parse_values_item(values_item_data)

            values.append(values_item)

        series_out = cls(
            downsampled=downsampled,
            key=key,
            steps=steps,
            total_points=total_points,
            values=values,
        )

        series_out.additional_properties = d
        return series_out

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
