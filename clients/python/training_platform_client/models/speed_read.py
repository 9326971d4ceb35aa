from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SpeedRead")


@_attrs_define
class SpeedRead:
    """How fast one optimizer step runs (speed.py), with the range that the calibration supports.

    Attributes:
        basis (str): How it was computed, what it assumed of the samples' lengths, and what it was calibrated on.
        packed (bool): Whether the step's micro-batches are packed sequences (the job's packing).
        padding_ratio (float): Share of padding in the tokens a step computes: 0 when packed.
        samples_per_step (int):
        step_seconds (float):
        step_seconds_high (float):
        step_seconds_low (float):
        tokens_per_second (float): Trained tokens per second over every GPU of the job.
        tokens_per_step (float): Trained (non-padding) tokens of one step over every GPU.
    """

    basis: str
    packed: bool
    padding_ratio: float
    samples_per_step: int
    step_seconds: float
    step_seconds_high: float
    step_seconds_low: float
    tokens_per_second: float
    tokens_per_step: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        basis = self.basis

        packed = self.packed

        padding_ratio = self.padding_ratio

        samples_per_step = self.samples_per_step

        step_seconds = self.step_seconds

        step_seconds_high = self.step_seconds_high

        step_seconds_low = self.step_seconds_low

        tokens_per_second = self.tokens_per_second

        tokens_per_step = self.tokens_per_step

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "basis": basis,
                "packed": packed,
                "padding_ratio": padding_ratio,
                "samples_per_step": samples_per_step,
                "step_seconds": step_seconds,
                "step_seconds_high": step_seconds_high,
                "step_seconds_low": step_seconds_low,
                "tokens_per_second": tokens_per_second,
                "tokens_per_step": tokens_per_step,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        basis = d.pop("basis")

        packed = d.pop("packed")

        padding_ratio = d.pop("padding_ratio")

        samples_per_step = d.pop("samples_per_step")

        step_seconds = d.pop("step_seconds")

        step_seconds_high = d.pop("step_seconds_high")

        step_seconds_low = d.pop("step_seconds_low")

        tokens_per_second = d.pop("tokens_per_second")

        tokens_per_step = d.pop("tokens_per_step")

        speed_read = cls(
            basis=basis,
            packed=packed,
            padding_ratio=padding_ratio,
            samples_per_step=samples_per_step,
            step_seconds=step_seconds,
            step_seconds_high=step_seconds_high,
            step_seconds_low=step_seconds_low,
            tokens_per_second=tokens_per_second,
            tokens_per_step=tokens_per_step,
        )

        speed_read.additional_properties = d
        return speed_read

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
