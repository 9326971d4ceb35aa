from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="OverfittingSettings")


@_attrs_define
class OverfittingSettings:
    """
    Attributes:
        enabled (bool | Unset):  Default: True.
        min_rise (float | Unset): Relative rise of eval_loss over them, at least. Default: 0.01.
        rises (int | Unset): Evaluations in a row whose eval_loss rose. Default: 2.
        smoothing (float | Unset): EMA weight of the newest training loss. Default: 0.1.
    """

    enabled: bool | Unset = True
    min_rise: float | Unset = 0.01
    rises: int | Unset = 2
    smoothing: float | Unset = 0.1

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        min_rise = self.min_rise

        rises = self.rises

        smoothing = self.smoothing

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if min_rise is not UNSET:
            field_dict["min_rise"] = min_rise
        if rises is not UNSET:
            field_dict["rises"] = rises
        if smoothing is not UNSET:
            field_dict["smoothing"] = smoothing

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled", UNSET)

        min_rise = d.pop("min_rise", UNSET)

        rises = d.pop("rises", UNSET)

        smoothing = d.pop("smoothing", UNSET)

        overfitting_settings = cls(
            enabled=enabled,
            min_rise=min_rise,
            rises=rises,
            smoothing=smoothing,
        )

        return overfitting_settings
