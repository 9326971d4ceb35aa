from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RewardCollapseSettings")


@_attrs_define
class RewardCollapseSettings:
    """
    Attributes:
        drop_fraction (float | Unset): Fall of the smoothed reward_mean, as a fraction of its best, that warns. Default:
            0.5.
        enabled (bool | Unset):  Default: True.
        min_drop (float | Unset): A smaller absolute fall never warns. Default: 0.05.
        smoothing (float | Unset): EMA weight of the newest reward_mean. Default: 0.1.
        std_floor (float | Unset): GRPO/GSPO reward_std below it is flat. Default: 0.001.
        std_steps (int | Unset): Flat steps in a row that make a collapse. Default: 10.
        std_window (int | Unset): Steps whose median reward_std shows the rewards used to vary. Default: 50.
        warmup (int | Unset): Steps before the best reward is tracked. Default: 20.
    """

    drop_fraction: float | Unset = 0.5
    enabled: bool | Unset = True
    min_drop: float | Unset = 0.05
    smoothing: float | Unset = 0.1
    std_floor: float | Unset = 0.001
    std_steps: int | Unset = 10
    std_window: int | Unset = 50
    warmup: int | Unset = 20

    def to_dict(self) -> dict[str, Any]:
        drop_fraction = self.drop_fraction

        enabled = self.enabled

        min_drop = self.min_drop

        smoothing = self.smoothing

        std_floor = self.std_floor

        std_steps = self.std_steps

        std_window = self.std_window

        warmup = self.warmup

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if drop_fraction is not UNSET:
            field_dict["drop_fraction"] = drop_fraction
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if min_drop is not UNSET:
            field_dict["min_drop"] = min_drop
        if smoothing is not UNSET:
            field_dict["smoothing"] = smoothing
        if std_floor is not UNSET:
            field_dict["std_floor"] = std_floor
        if std_steps is not UNSET:
            field_dict["std_steps"] = std_steps
        if std_window is not UNSET:
            field_dict["std_window"] = std_window
        if warmup is not UNSET:
            field_dict["warmup"] = warmup

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        drop_fraction = d.pop("drop_fraction", UNSET)

        enabled = d.pop("enabled", UNSET)

        min_drop = d.pop("min_drop", UNSET)

        smoothing = d.pop("smoothing", UNSET)

        std_floor = d.pop("std_floor", UNSET)

        std_steps = d.pop("std_steps", UNSET)

        std_window = d.pop("std_window", UNSET)

        warmup = d.pop("warmup", UNSET)

        reward_collapse_settings = cls(
            drop_fraction=drop_fraction,
            enabled=enabled,
            min_drop=min_drop,
            smoothing=smoothing,
            std_floor=std_floor,
            std_steps=std_steps,
            std_window=std_window,
            warmup=warmup,
        )

        return reward_collapse_settings
