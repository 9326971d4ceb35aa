from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="KeyOut")


@_attrs_define
class KeyOut:
    """
    Attributes:
        first_step (int):
        key (str):
        last_step (int):
        points (int):
    """

    first_step: int
    key: str
    last_step: int
    points: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        first_step = self.first_step

        key = self.key

        last_step = self.last_step

        points = self.points

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "first_step": first_step,
                "key": key,
                "last_step": last_step,
                "points": points,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        first_step = d.pop("first_step")

        key = d.pop("key")

        last_step = d.pop("last_step")

        points = d.pop("points")

        key_out = cls(
            first_step=first_step,
            key=key,
            last_step=last_step,
            points=points,
        )

        key_out.additional_properties = d
        return key_out

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
