from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="LossPlateauSettings")


@_attrs_define
class LossPlateauSettings:
    """
    Attributes:
        enabled (bool | Unset):  Default: True.
        min_improvement (float | Unset): Relative improvement of the smoothed loss over the window. Default: 0.01.
        smoothing (float | Unset): EMA weight of the newest loss. Default: 0.05.
        warmup (int | Unset): Steps before the first judgement. Default: 100.
        window (int | Unset): Steps over which the loss must improve. Default: 200.
    """

    enabled: bool | Unset = True
    min_improvement: float | Unset = 0.01
    smoothing: float | Unset = 0.05
    warmup: int | Unset = 100
    window: int | Unset = 200

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        min_improvement = self.min_improvement

        smoothing = self.smoothing

        warmup = self.warmup

        window = self.window

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if min_improvement is not UNSET:
            field_dict["min_improvement"] = min_improvement
        if smoothing is not UNSET:
            field_dict["smoothing"] = smoothing
        if warmup is not UNSET:
            field_dict["warmup"] = warmup
        if window is not UNSET:
            field_dict["window"] = window

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled", UNSET)

        min_improvement = d.pop("min_improvement", UNSET)

        smoothing = d.pop("smoothing", UNSET)

        warmup = d.pop("warmup", UNSET)

        window = d.pop("window", UNSET)

        loss_plateau_settings = cls(
            enabled=enabled,
            min_improvement=min_improvement,
            smoothing=smoothing,
            warmup=warmup,
            window=window,
        )

        return loss_plateau_settings
