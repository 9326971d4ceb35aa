from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.action_settings import ActionSettings
    from ..models.diagnostics_settings import DiagnosticsSettings


T = TypeVar("T", bound="HealthSettings")


@_attrs_define
class HealthSettings:
    """A job's `health` field: detector overrides and automatic actions.

    Attributes:
        actions (ActionSettings | Unset): Automatic actions, each opt-in (docs/health.md says who takes each, and when).
        detectors (DiagnosticsSettings | Unset):
        layer_grad_norms_every (int | Unset): Per-layer gradient norms (the gradient heatmap) every this many steps; 0
            turns them off. Default: 10.
    """

    actions: ActionSettings | Unset = UNSET
    detectors: DiagnosticsSettings | Unset = UNSET
    layer_grad_norms_every: int | Unset = 10

    def to_dict(self) -> dict[str, Any]:
        actions: dict[str, Any] | Unset = UNSET
        if not isinstance(self.actions, Unset):
            actions = self.actions.to_dict()

        detectors: dict[str, Any] | Unset = UNSET
        if not isinstance(self.detectors, Unset):
            detectors = self.detectors.to_dict()

        layer_grad_norms_every = self.layer_grad_norms_every

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if actions is not UNSET:
            field_dict["actions"] = actions
        if detectors is not UNSET:
            field_dict["detectors"] = detectors
        if layer_grad_norms_every is not UNSET:
            field_dict["layer_grad_norms_every"] = layer_grad_norms_every

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.action_settings import ActionSettings  # noqa: PLC0415
        from ..models.diagnostics_settings import DiagnosticsSettings  # noqa: PLC0415

        d = dict(src_dict)
        _actions = d.pop("actions", UNSET)
        actions: ActionSettings | Unset
        if isinstance(_actions, Unset):
            actions = UNSET
        else:
            actions = ActionSettings.from_dict(_actions)

        _detectors = d.pop("detectors", UNSET)
        detectors: DiagnosticsSettings | Unset
        if isinstance(_detectors, Unset):
            detectors = UNSET
        else:
            detectors = DiagnosticsSettings.from_dict(_detectors)

        layer_grad_norms_every = d.pop("layer_grad_norms_every", UNSET)

        health_settings = cls(
            actions=actions,
            detectors=detectors,
            layer_grad_norms_every=layer_grad_norms_every,
        )

        return health_settings
