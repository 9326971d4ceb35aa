from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.finding_read_severity import FindingReadSeverity

if TYPE_CHECKING:
    from ..models.finding_read_evidence import FindingReadEvidence
    from ..models.finding_read_params import FindingReadParams
    from ..models.finding_read_text import FindingReadText


T = TypeVar("T", bound="FindingRead")


@_attrs_define
class FindingRead:
    """
    Attributes:
        actions (list[str]): The automatic actions taken for it (each at most once).
        best_step (int | None): The step whose checkpoint to keep (overfitting).
        created_at (datetime.datetime):
        evidence (FindingReadEvidence): The metric values of its latest step.
        first_step (int):
        id (int):
        job_id (str):
        kind (str):
        last_step (int): The latest step it held; it moves while the condition keeps holding.
        params (FindingReadParams):
        rule (None | str): Which of the kind's conditions held, where it has several.
        severity (FindingReadSeverity):
        text (FindingReadText): The message and suggestions per language: en, zh-CN.
        updated_at (datetime.datetime):
    """

    actions: list[str]
    best_step: int | None
    created_at: datetime.datetime
    evidence: FindingReadEvidence
    first_step: int
    id: int
    job_id: str
    kind: str
    last_step: int
    params: FindingReadParams
    rule: None | str
    severity: FindingReadSeverity
    text: FindingReadText
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        actions = self.actions

        best_step: int | None
        best_step = self.best_step

        created_at = self.created_at.isoformat()

        evidence = self.evidence.to_dict()

        first_step = self.first_step

        id = self.id

        job_id = self.job_id

        kind = self.kind

        last_step = self.last_step

        params = self.params.to_dict()

        rule: None | str
        rule = self.rule

        severity = self.severity.value

        text = self.text.to_dict()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actions": actions,
                "best_step": best_step,
                "created_at": created_at,
                "evidence": evidence,
                "first_step": first_step,
                "id": id,
                "job_id": job_id,
                "kind": kind,
                "last_step": last_step,
                "params": params,
                "rule": rule,
                "severity": severity,
                "text": text,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.finding_read_evidence import FindingReadEvidence  # noqa: PLC0415
        from ..models.finding_read_params import FindingReadParams  # noqa: PLC0415
        from ..models.finding_read_text import FindingReadText  # noqa: PLC0415

        d = dict(src_dict)
        actions = cast(list[str], d.pop("actions"))

        def _parse_best_step(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        best_step = _parse_best_step(d.pop("best_step"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        evidence = FindingReadEvidence.from_dict(d.pop("evidence"))

        first_step = d.pop("first_step")

        id = d.pop("id")

        job_id = d.pop("job_id")

        kind = d.pop("kind")

        last_step = d.pop("last_step")

        params = FindingReadParams.from_dict(d.pop("params"))

        def _parse_rule(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rule = _parse_rule(d.pop("rule"))

        severity = FindingReadSeverity(d.pop("severity"))

        text = FindingReadText.from_dict(d.pop("text"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        finding_read = cls(
            actions=actions,
            best_step=best_step,
            created_at=created_at,
            evidence=evidence,
            first_step=first_step,
            id=id,
            job_id=job_id,
            kind=kind,
            last_step=last_step,
            params=params,
            rule=rule,
            severity=severity,
            text=text,
            updated_at=updated_at,
        )

        finding_read.additional_properties = d
        return finding_read

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
