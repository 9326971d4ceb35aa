from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ActionSettings")


@_attrs_define
class ActionSettings:
    """Automatic actions, each opt-in (docs/health.md says who takes each, and when).

    Attributes:
        lower_lr_on_grad_explosion (bool | Unset): Multiply the learning rate by lr_factor when gradients explode (TRL:
            live). Default: False.
        lr_factor (float | Unset): The factor lower_lr_on_grad_explosion applies. Default: 0.5.
        pause_on_non_finite (bool | Unset): Pause when a loss, grad_norm or reward is NaN/Inf, before that step is
            checkpointed (TRL: the trainer itself stops without saving; verl: the platform requests a pause). Default:
            False.
        save_on_best (bool | Unset): Save a checkpoint, kept out of rotation, at each new best eval_loss (TRL; needs an
            eval set). Default: False.
        stop_on_overfitting (bool | Unset): Stop the job once overfitting is confirmed. Default: False.
    """

    lower_lr_on_grad_explosion: bool | Unset = False
    lr_factor: float | Unset = 0.5
    pause_on_non_finite: bool | Unset = False
    save_on_best: bool | Unset = False
    stop_on_overfitting: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        lower_lr_on_grad_explosion = self.lower_lr_on_grad_explosion

        lr_factor = self.lr_factor

        pause_on_non_finite = self.pause_on_non_finite

        save_on_best = self.save_on_best

        stop_on_overfitting = self.stop_on_overfitting

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if lower_lr_on_grad_explosion is not UNSET:
            field_dict["lower_lr_on_grad_explosion"] = lower_lr_on_grad_explosion
        if lr_factor is not UNSET:
            field_dict["lr_factor"] = lr_factor
        if pause_on_non_finite is not UNSET:
            field_dict["pause_on_non_finite"] = pause_on_non_finite
        if save_on_best is not UNSET:
            field_dict["save_on_best"] = save_on_best
        if stop_on_overfitting is not UNSET:
            field_dict["stop_on_overfitting"] = stop_on_overfitting

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        lower_lr_on_grad_explosion = d.pop("lower_lr_on_grad_explosion", UNSET)

        lr_factor = d.pop("lr_factor", UNSET)

        pause_on_non_finite = d.pop("pause_on_non_finite", UNSET)

        save_on_best = d.pop("save_on_best", UNSET)

        stop_on_overfitting = d.pop("stop_on_overfitting", UNSET)

        action_settings = cls(
            lower_lr_on_grad_explosion=lower_lr_on_grad_explosion,
            lr_factor=lr_factor,
            pause_on_non_finite=pause_on_non_finite,
            save_on_best=save_on_best,
            stop_on_overfitting=stop_on_overfitting,
        )

        return action_settings
