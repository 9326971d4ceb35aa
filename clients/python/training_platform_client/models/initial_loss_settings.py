from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.loss_range import LossRange


T = TypeVar("T", bound="InitialLossSettings")


@_attrs_define
class InitialLossSettings:
    """
    Attributes:
        dpo (LossRange | Unset):
        enabled (bool | Unset):  Default: True.
        rl (LossRange | Unset):
        sft (LossRange | Unset):
        within_steps (int | Unset): Only a loss logged by this step is an initial loss (not a resume). Default: 10.
    """

    dpo: LossRange | Unset = UNSET
    enabled: bool | Unset = True
    rl: LossRange | Unset = UNSET
    sft: LossRange | Unset = UNSET
    within_steps: int | Unset = 10

    def to_dict(self) -> dict[str, Any]:
        dpo: dict[str, Any] | Unset = UNSET
        if not isinstance(self.dpo, Unset):
            dpo = self.dpo.to_dict()

        enabled = self.enabled

        rl: dict[str, Any] | Unset = UNSET
        if not isinstance(self.rl, Unset):
            rl = self.rl.to_dict()

        sft: dict[str, Any] | Unset = UNSET
        if not isinstance(self.sft, Unset):
            sft = self.sft.to_dict()

        within_steps = self.within_steps

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if dpo is not UNSET:
            field_dict["dpo"] = dpo
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if rl is not UNSET:
            field_dict["rl"] = rl
        if sft is not UNSET:
            field_dict["sft"] = sft
        if within_steps is not UNSET:
            field_dict["within_steps"] = within_steps

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.loss_range import LossRange  # noqa: PLC0415

        d = dict(src_dict)
        _dpo = d.pop("dpo", UNSET)
        dpo: LossRange | Unset
        if isinstance(_dpo, Unset):
            dpo = UNSET
        else:
            dpo = LossRange.from_dict(_dpo)

        enabled = d.pop("enabled", UNSET)

        _rl = d.pop("rl", UNSET)
        rl: LossRange | Unset
        if isinstance(_rl, Unset):
            rl = UNSET
        else:
            rl = LossRange.from_dict(_rl)

        _sft = d.pop("sft", UNSET)
        sft: LossRange | Unset
        if isinstance(_sft, Unset):
            sft = UNSET
        else:
            sft = LossRange.from_dict(_sft)

        within_steps = d.pop("within_steps", UNSET)

        initial_loss_settings = cls(
            dpo=dpo,
            enabled=enabled,
            rl=rl,
            sft=sft,
            within_steps=within_steps,
        )

        return initial_loss_settings
