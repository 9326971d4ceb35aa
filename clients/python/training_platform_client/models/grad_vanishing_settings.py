from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="GradVanishingSettings")


@_attrs_define
class GradVanishingSettings:
    """
    Attributes:
        enabled (bool | Unset):  Default: True.
        floor (float | Unset):  Default: 1e-06.
        steps (int | Unset): Steps in a row below the floor. Default: 10.
    """

    enabled: bool | Unset = True
    floor: float | Unset = 1e-06
    steps: int | Unset = 10

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        floor = self.floor

        steps = self.steps

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if floor is not UNSET:
            field_dict["floor"] = floor
        if steps is not UNSET:
            field_dict["steps"] = steps

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled", UNSET)

        floor = d.pop("floor", UNSET)

        steps = d.pop("steps", UNSET)

        grad_vanishing_settings = cls(
            enabled=enabled,
            floor=floor,
            steps=steps,
        )

        return grad_vanishing_settings
