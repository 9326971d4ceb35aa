from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="KlExplosionSettings")


@_attrs_define
class KlExplosionSettings:
    """
    Attributes:
        ceiling (float | Unset): kl above it is critical. Default: 1.0.
        enabled (bool | Unset):  Default: True.
        jump_factor (float | Unset): kl above this x its median warns. Default: 10.0.
        max_ceiling (float | Unset): kl_max (largest per-token KL) limit. Default: 10.0.
        min_kl (float | Unset): A jump below this KL is not an explosion. Default: 0.1.
        warmup (int | Unset): Steps the baseline needs before it judges. Default: 20.
        window (int | Unset): Steps whose median is the baseline. Default: 50.
    """

    ceiling: float | Unset = 1.0
    enabled: bool | Unset = True
    jump_factor: float | Unset = 10.0
    max_ceiling: float | Unset = 10.0
    min_kl: float | Unset = 0.1
    warmup: int | Unset = 20
    window: int | Unset = 50

    def to_dict(self) -> dict[str, Any]:
        ceiling = self.ceiling

        enabled = self.enabled

        jump_factor = self.jump_factor

        max_ceiling = self.max_ceiling

        min_kl = self.min_kl

        warmup = self.warmup

        window = self.window

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if ceiling is not UNSET:
            field_dict["ceiling"] = ceiling
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if jump_factor is not UNSET:
            field_dict["jump_factor"] = jump_factor
        if max_ceiling is not UNSET:
            field_dict["max_ceiling"] = max_ceiling
        if min_kl is not UNSET:
            field_dict["min_kl"] = min_kl
        if warmup is not UNSET:
            field_dict["warmup"] = warmup
        if window is not UNSET:
            field_dict["window"] = window

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        ceiling = d.pop("ceiling", UNSET)

        enabled = d.pop("enabled", UNSET)

        jump_factor = d.pop("jump_factor", UNSET)

        max_ceiling = d.pop("max_ceiling", UNSET)

        min_kl = d.pop("min_kl", UNSET)

        warmup = d.pop("warmup", UNSET)

        window = d.pop("window", UNSET)

        kl_explosion_settings = cls(
            ceiling=ceiling,
            enabled=enabled,
            jump_factor=jump_factor,
            max_ceiling=max_ceiling,
            min_kl=min_kl,
            warmup=warmup,
            window=window,
        )

        return kl_explosion_settings
