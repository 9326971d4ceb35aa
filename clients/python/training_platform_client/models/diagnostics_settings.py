from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.grad_explosion_settings import GradExplosionSettings
    from ..models.grad_vanishing_settings import GradVanishingSettings
    from ..models.initial_loss_settings import InitialLossSettings
    from ..models.kl_explosion_settings import KlExplosionSettings
    from ..models.log_lines_settings import LogLinesSettings
    from ..models.loss_plateau_settings import LossPlateauSettings
    from ..models.non_finite_settings import NonFiniteSettings
    from ..models.overfitting_settings import OverfittingSettings
    from ..models.reward_collapse_settings import RewardCollapseSettings
    from ..models.slow_step_settings import SlowStepSettings
    from ..models.throughput_drop_settings import ThroughputDropSettings


T = TypeVar("T", bound="DiagnosticsSettings")


@_attrs_define
class DiagnosticsSettings:
    """
    Attributes:
        grad_explosion (GradExplosionSettings | Unset):
        grad_vanishing (GradVanishingSettings | Unset):
        initial_loss (InitialLossSettings | Unset):
        kl_explosion (KlExplosionSettings | Unset):
        log_lines (LogLinesSettings | Unset):
        loss_plateau (LossPlateauSettings | Unset):
        non_finite (NonFiniteSettings | Unset):
        overfitting (OverfittingSettings | Unset):
        reward_collapse (RewardCollapseSettings | Unset):
        slow_step (SlowStepSettings | Unset):
        throughput_drop (ThroughputDropSettings | Unset):
    """

    grad_explosion: GradExplosionSettings | Unset = UNSET
    grad_vanishing: GradVanishingSettings | Unset = UNSET
    initial_loss: InitialLossSettings | Unset = UNSET
    kl_explosion: KlExplosionSettings | Unset = UNSET
    log_lines: LogLinesSettings | Unset = UNSET
    loss_plateau: LossPlateauSettings | Unset = UNSET
    non_finite: NonFiniteSettings | Unset = UNSET
    overfitting: OverfittingSettings | Unset = UNSET
    reward_collapse: RewardCollapseSettings | Unset = UNSET
    slow_step: SlowStepSettings | Unset = UNSET
    throughput_drop: ThroughputDropSettings | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        grad_explosion: dict[str, Any] | Unset = UNSET
        if not isinstance(self.grad_explosion, Unset):
            grad_explosion = self.grad_explosion.to_dict()

        grad_vanishing: dict[str, Any] | Unset = UNSET
        if not isinstance(self.grad_vanishing, Unset):
            grad_vanishing = self.grad_vanishing.to_dict()

        initial_loss: dict[str, Any] | Unset = UNSET
        if not isinstance(self.initial_loss, Unset):
            initial_loss = self.initial_loss.to_dict()

        kl_explosion: dict[str, Any] | Unset = UNSET
        if not isinstance(self.kl_explosion, Unset):
            kl_explosion = self.kl_explosion.to_dict()

        log_lines: dict[str, Any] | Unset = UNSET
        if not isinstance(self.log_lines, Unset):
            log_lines = self.log_lines.to_dict()

        loss_plateau: dict[str, Any] | Unset = UNSET
        if not isinstance(self.loss_plateau, Unset):
            loss_plateau = self.loss_plateau.to_dict()

        non_finite: dict[str, Any] | Unset = UNSET
        if not isinstance(self.non_finite, Unset):
            non_finite = self.non_finite.to_dict()

        overfitting: dict[str, Any] | Unset = UNSET
        if not isinstance(self.overfitting, Unset):
            overfitting = self.overfitting.to_dict()

        reward_collapse: dict[str, Any] | Unset = UNSET
        if not isinstance(self.reward_collapse, Unset):
            reward_collapse = self.reward_collapse.to_dict()

        slow_step: dict[str, Any] | Unset = UNSET
        if not isinstance(self.slow_step, Unset):
            slow_step = self.slow_step.to_dict()

        throughput_drop: dict[str, Any] | Unset = UNSET
        if not isinstance(self.throughput_drop, Unset):
            throughput_drop = self.throughput_drop.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if grad_explosion is not UNSET:
            field_dict["grad_explosion"] = grad_explosion
        if grad_vanishing is not UNSET:
            field_dict["grad_vanishing"] = grad_vanishing
        if initial_loss is not UNSET:
            field_dict["initial_loss"] = initial_loss
        if kl_explosion is not UNSET:
            field_dict["kl_explosion"] = kl_explosion
        if log_lines is not UNSET:
            field_dict["log_lines"] = log_lines
        if loss_plateau is not UNSET:
            field_dict["loss_plateau"] = loss_plateau
        if non_finite is not UNSET:
            field_dict["non_finite"] = non_finite
        if overfitting is not UNSET:
            field_dict["overfitting"] = overfitting
        if reward_collapse is not UNSET:
            field_dict["reward_collapse"] = reward_collapse
        if slow_step is not UNSET:
            field_dict["slow_step"] = slow_step
        if throughput_drop is not UNSET:
            field_dict["throughput_drop"] = throughput_drop

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.grad_explosion_settings import GradExplosionSettings  # noqa: PLC0415
        from ..models.grad_vanishing_settings import GradVanishingSettings  # noqa: PLC0415
        from ..models.initial_loss_settings import InitialLossSettings  # noqa: PLC0415
        from ..models.kl_explosion_settings import KlExplosionSettings  # noqa: PLC0415
        from ..models.log_lines_settings import LogLinesSettings  # noqa: PLC0415
        from ..models.loss_plateau_settings import LossPlateauSettings  # noqa: PLC0415
        from ..models.non_finite_settings import NonFiniteSettings  # noqa: PLC0415
        from ..models.overfitting_settings import OverfittingSettings  # noqa: PLC0415
        from ..models.reward_collapse_settings import RewardCollapseSettings  # noqa: PLC0415
        from ..models.slow_step_settings import SlowStepSettings  # noqa: PLC0415
        from ..models.throughput_drop_settings import ThroughputDropSettings  # noqa: PLC0415

        d = dict(src_dict)
        _grad_explosion = d.pop("grad_explosion", UNSET)
        grad_explosion: GradExplosionSettings | Unset
        if isinstance(_grad_explosion, Unset):
            grad_explosion = UNSET
        else:
            grad_explosion = GradExplosionSettings.from_dict(_grad_explosion)

        _grad_vanishing = d.pop("grad_vanishing", UNSET)
        grad_vanishing: GradVanishingSettings | Unset
        if isinstance(_grad_vanishing, Unset):
            grad_vanishing = UNSET
        else:
            grad_vanishing = GradVanishingSettings.from_dict(_grad_vanishing)

        _initial_loss = d.pop("initial_loss", UNSET)
        initial_loss: InitialLossSettings | Unset
        if isinstance(_initial_loss, Unset):
            initial_loss = UNSET
        else:
            initial_loss = InitialLossSettings.from_dict(_initial_loss)

        _kl_explosion = d.pop("kl_explosion", UNSET)
        kl_explosion: KlExplosionSettings | Unset
        if isinstance(_kl_explosion, Unset):
            kl_explosion = UNSET
        else:
            kl_explosion = KlExplosionSettings.from_dict(_kl_explosion)

        _log_lines = d.pop("log_lines", UNSET)
        log_lines: LogLinesSettings | Unset
        if isinstance(_log_lines, Unset):
            log_lines = UNSET
        else:
            log_lines = LogLinesSettings.from_dict(_log_lines)

        _loss_plateau = d.pop("loss_plateau", UNSET)
        loss_plateau: LossPlateauSettings | Unset
        if isinstance(_loss_plateau, Unset):
            loss_plateau = UNSET
        else:
            loss_plateau = LossPlateauSettings.from_dict(_loss_plateau)

        _non_finite = d.pop("non_finite", UNSET)
        non_finite: NonFiniteSettings | Unset
        if isinstance(_non_finite, Unset):
            non_finite = UNSET
        else:
            non_finite = NonFiniteSettings.from_dict(_non_finite)

        _overfitting = d.pop("overfitting", UNSET)
        overfitting: OverfittingSettings | Unset
        if isinstance(_overfitting, Unset):
            overfitting = UNSET
        else:
            overfitting = OverfittingSettings.from_dict(_overfitting)

        _reward_collapse = d.pop("reward_collapse", UNSET)
        reward_collapse: RewardCollapseSettings | Unset
        if isinstance(_reward_collapse, Unset):
            reward_collapse = UNSET
        else:
            reward_collapse = RewardCollapseSettings.from_dict(_reward_collapse)

        _slow_step = d.pop("slow_step", UNSET)
        slow_step: SlowStepSettings | Unset
        if isinstance(_slow_step, Unset):
            slow_step = UNSET
        else:
            slow_step = SlowStepSettings.from_dict(_slow_step)

        _throughput_drop = d.pop("throughput_drop", UNSET)
        throughput_drop: ThroughputDropSettings | Unset
        if isinstance(_throughput_drop, Unset):
            throughput_drop = UNSET
        else:
            throughput_drop = ThroughputDropSettings.from_dict(_throughput_drop)

        diagnostics_settings = cls(
            grad_explosion=grad_explosion,
            grad_vanishing=grad_vanishing,
            initial_loss=initial_loss,
            kl_explosion=kl_explosion,
            log_lines=log_lines,
            loss_plateau=loss_plateau,
            non_finite=non_finite,
            overfitting=overfitting,
            reward_collapse=reward_collapse,
            slow_step=slow_step,
            throughput_drop=throughput_drop,
        )

        return diagnostics_settings
