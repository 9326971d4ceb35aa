from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="GradExplosionSettings")


@_attrs_define
class GradExplosionSettings:
    """
    Attributes:
        ceiling (float | Unset):  Default: 100.0.
        enabled (bool | Unset):  Default: True.
        steps (int | Unset): Steps in a row above the ceiling. Default: 5.
    """

    ceiling: float | Unset = 100.0
    enabled: bool | Unset = True
    steps: int | Unset = 5

    def to_dict(self) -> dict[str, Any]:
        ceiling = self.ceiling

        enabled = self.enabled

        steps = self.steps

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if ceiling is not UNSET:
            field_dict["ceiling"] = ceiling
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if steps is not UNSET:
            field_dict["steps"] = steps

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        ceiling = d.pop("ceiling", UNSET)

        enabled = d.pop("enabled", UNSET)

        steps = d.pop("steps", UNSET)

        grad_explosion_settings = cls(
            ceiling=ceiling,
            enabled=enabled,
            steps=steps,
        )

        return grad_explosion_settings
