from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SlowStepSettings")


@_attrs_define
class SlowStepSettings:
    """
    Attributes:
        enabled (bool | Unset):  Default: True.
        eval_steps (int | None | Unset): Eval interval: those steps too.
        factor (float | Unset): step_time above this x its median is slow. Default: 3.0.
        min_excess_seconds (float | Unset): A step less than this much slower than the median is not slow. Default: 1.0.
        save_steps (int | None | Unset): Checkpoint interval: those steps may be slow.
        warmup (int | Unset): Steps the baseline needs before it judges. Default: 10.
        window (int | Unset): Steps whose median is the baseline. Default: 50.
    """

    enabled: bool | Unset = True
    eval_steps: int | None | Unset = UNSET
    factor: float | Unset = 3.0
    min_excess_seconds: float | Unset = 1.0
    save_steps: int | None | Unset = UNSET
    warmup: int | Unset = 10
    window: int | Unset = 50

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        eval_steps: int | None | Unset
        if isinstance(self.eval_steps, Unset):
            eval_steps = UNSET
        else:
            eval_steps = self.eval_steps

        factor = self.factor

        min_excess_seconds = self.min_excess_seconds

        save_steps: int | None | Unset
        if isinstance(self.save_steps, Unset):
            save_steps = UNSET
        else:
            save_steps = self.save_steps

        warmup = self.warmup

        window = self.window

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if eval_steps is not UNSET:
            field_dict["eval_steps"] = eval_steps
        if factor is not UNSET:
            field_dict["factor"] = factor
        if min_excess_seconds is not UNSET:
            field_dict["min_excess_seconds"] = min_excess_seconds
        if save_steps is not UNSET:
            field_dict["save_steps"] = save_steps
        if warmup is not UNSET:
            field_dict["warmup"] = warmup
        if window is not UNSET:
            field_dict["window"] = window

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled", UNSET)

        def _parse_eval_steps(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        eval_steps = _parse_eval_steps(d.pop("eval_steps", UNSET))

        factor = d.pop("factor", UNSET)

        min_excess_seconds = d.pop("min_excess_seconds", UNSET)

        def _parse_save_steps(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        save_steps = _parse_save_steps(d.pop("save_steps", UNSET))

        warmup = d.pop("warmup", UNSET)

        window = d.pop("window", UNSET)

        slow_step_settings = cls(
            enabled=enabled,
            eval_steps=eval_steps,
            factor=factor,
            min_excess_seconds=min_excess_seconds,
            save_steps=save_steps,
            warmup=warmup,
            window=window,
        )

        return slow_step_settings
