from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.signal_read_severity import SignalReadSeverity

if TYPE_CHECKING:
    from ..models.signal_read_evidence import SignalReadEvidence
    from ..models.signal_read_params import SignalReadParams
    from ..models.signal_read_text import SignalReadText


T = TypeVar("T", bound="SignalRead")


@_attrs_define
class SignalRead:
    """
    Attributes:
        best_step (int | None):
        evidence (SignalReadEvidence):
        kind (str):
        params (SignalReadParams):
        rule (None | str):
        severity (SignalReadSeverity):
        step (int):
        text (SignalReadText): The message and suggestions per language: en, zh-CN.
    """

    best_step: int | None
    evidence: SignalReadEvidence
    kind: str
    params: SignalReadParams
    rule: None | str
    severity: SignalReadSeverity
    step: int
    text: SignalReadText
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        best_step: int | None
        best_step = self.best_step

        evidence = self.evidence.to_dict()

        kind = self.kind

        params = self.params.to_dict()

        rule: None | str
        rule = self.rule

        severity = self.severity.value

        step = self.step

        text = self.text.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "best_step": best_step,
                "evidence": evidence,
                "kind": kind,
                "params": params,
                "rule": rule,
                "severity": severity,
                "step": step,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.signal_read_evidence import SignalReadEvidence  # noqa: PLC0415
        from ..models.signal_read_params import SignalReadParams  # noqa: PLC0415
        from ..models.signal_read_text import SignalReadText  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_best_step(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        best_step = _parse_best_step(d.pop("best_step"))

        evidence = SignalReadEvidence.from_dict(d.pop("evidence"))

        kind = d.pop("kind")

        params = SignalReadParams.from_dict(d.pop("params"))

        def _parse_rule(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rule = _parse_rule(d.pop("rule"))

        severity = SignalReadSeverity(d.pop("severity"))

        step = d.pop("step")

        text = SignalReadText.from_dict(d.pop("text"))

        signal_read = cls(
            best_step=best_step,
            evidence=evidence,
            kind=kind,
            params=params,
            rule=rule,
            severity=severity,
            step=step,
            text=text,
        )

        signal_read.additional_properties = d
        return signal_read

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
