from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ThroughputDropSettings")


@_attrs_define
class ThroughputDropSettings:
    """
    Attributes:
        enabled (bool | Unset):  Default: True.
        fraction (float | Unset): tokens_per_second below this x its median drops. Default: 0.5.
        steps (int | Unset): Steps in a row below it. Default: 5.
        warmup (int | Unset): Steps the baseline needs before it judges. Default: 10.
        window (int | Unset): Steps whose median is the baseline. Default: 50.
    """

    enabled: bool | Unset = True
    fraction: float | Unset = 0.5
    steps: int | Unset = 5
    warmup: int | Unset = 10
    window: int | Unset = 50

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        fraction = self.fraction

        steps = self.steps

        warmup = self.warmup

        window = self.window

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if fraction is not UNSET:
            field_dict["fraction"] = fraction
        if steps is not UNSET:
            field_dict["steps"] = steps
        if warmup is not UNSET:
            field_dict["warmup"] = warmup
        if window is not UNSET:
            field_dict["window"] = window

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled", UNSET)

        fraction = d.pop("fraction", UNSET)

        steps = d.pop("steps", UNSET)

        warmup = d.pop("warmup", UNSET)

        window = d.pop("window", UNSET)

        throughput_drop_settings = cls(
            enabled=enabled,
            fraction=fraction,
            steps=steps,
            warmup=warmup,
            window=window,
        )

        return throughput_drop_settings
