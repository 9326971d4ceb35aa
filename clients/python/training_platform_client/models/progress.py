from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Progress")


@_attrs_define
class Progress:
    """
    Attributes:
        current_step (int):
        elapsed_seconds (float | None):
        epoch (float | None):
        eta_seconds (float | None):
        last_checkpoint_step (int | None):
        learning_rate (float | None):
        loss (float | None):
        message (None | str):
        state (str):
        total_steps (int | None):
    """

    current_step: int
    elapsed_seconds: float | None
    epoch: float | None
    eta_seconds: float | None
    last_checkpoint_step: int | None
    learning_rate: float | None
    loss: float | None
    message: None | str
    state: str
    total_steps: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        current_step = self.current_step

        elapsed_seconds: float | None
        elapsed_seconds = self.elapsed_seconds

        epoch: float | None
        epoch = self.epoch

        eta_seconds: float | None
        eta_seconds = self.eta_seconds

        last_checkpoint_step: int | None
        last_checkpoint_step = self.last_checkpoint_step

        learning_rate: float | None
        learning_rate = self.learning_rate

        loss: float | None
        loss = self.loss

        message: None | str
        message = self.message

        state = self.state

        total_steps: int | None
        total_steps = self.total_steps

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "current_step": current_step,
                "elapsed_seconds": elapsed_seconds,
                "epoch": epoch,
                "eta_seconds": eta_seconds,
                "last_checkpoint_step": last_checkpoint_step,
                "learning_rate": learning_rate,
                "loss": loss,
                "message": message,
                "state": state,
                "total_steps": total_steps,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        current_step = d.pop("current_step")

        def _parse_elapsed_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        elapsed_seconds = _parse_elapsed_seconds(d.pop("elapsed_seconds"))

        def _parse_epoch(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        epoch = _parse_epoch(d.pop("epoch"))

        def _parse_eta_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        eta_seconds = _parse_eta_seconds(d.pop("eta_seconds"))

        def _parse_last_checkpoint_step(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_checkpoint_step = _parse_last_checkpoint_step(d.pop("last_checkpoint_step"))

        def _parse_learning_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        learning_rate = _parse_learning_rate(d.pop("learning_rate"))

        def _parse_loss(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        loss = _parse_loss(d.pop("loss"))

        def _parse_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message = _parse_message(d.pop("message"))

        state = d.pop("state")

        def _parse_total_steps(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        total_steps = _parse_total_steps(d.pop("total_steps"))

        progress = cls(
            current_step=current_step,
            elapsed_seconds=elapsed_seconds,
            epoch=epoch,
            eta_seconds=eta_seconds,
            last_checkpoint_step=last_checkpoint_step,
            learning_rate=learning_rate,
            loss=loss,
            message=message,
            state=state,
            total_steps=total_steps,
        )

        progress.additional_properties = d
        return progress

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
