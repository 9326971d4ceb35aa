from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.signal_read import SignalRead


T = TypeVar("T", bound="StepDiagnosis")


@_attrs_define
class StepDiagnosis:
    """
    Attributes:
        has_anomaly (bool): A warning or critical signal fired at this step.
        job_id (str):
        logged (bool): Whether the job logged this step at all.
        signals (list[SignalRead]):
        step (int):
    """

    has_anomaly: bool
    job_id: str
    logged: bool
    signals: list[SignalRead]
    step: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        has_anomaly = self.has_anomaly

        job_id = self.job_id

        logged = self.logged

        signals = []
        for signals_item_data in self.signals:
            signals_item = signals_item_data.to_dict()
            signals.append(signals_item)

        step = self.step

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "has_anomaly": has_anomaly,
                "job_id": job_id,
                "logged": logged,
                "signals": signals,
                "step": step,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.signal_read import SignalRead  # noqa: PLC0415

        d = dict(src_dict)
        has_anomaly = d.pop("has_anomaly")

        job_id = d.pop("job_id")

        logged = d.pop("logged")

        signals = []
        _signals = d.pop("signals")
        for signals_item_data in _signals:
            signals_item = SignalRead.from_dict(signals_item_data)

            signals.append(signals_item)

        step = d.pop("step")

        step_diagnosis = cls(
            has_anomaly=has_anomaly,
            job_id=job_id,
            logged=logged,
            signals=signals,
            step=step,
        )

        step_diagnosis.additional_properties = d
        return step_diagnosis

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
