from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.audit_task_read_kind import AuditTaskReadKind
from ..models.audit_task_read_status import AuditTaskReadStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.audit_task_read_params import AuditTaskReadParams
    from ..models.audit_task_read_result_type_0 import AuditTaskReadResultType0
    from ..models.finding import Finding


T = TypeVar("T", bound="AuditTaskRead")


@_attrs_define
class AuditTaskRead:
    """A finished audit shows its first findings (each with its first rows); the report has all of them.

    Attributes:
        created_at (datetime.datetime):
        dataset_id (str):
        error (None | str):
        finished_at (datetime.datetime | None):
        id (str):
        kind (AuditTaskReadKind):
        message (str):
        params (AuditTaskReadParams):
        progress (float):
        result (AuditTaskReadResultType0 | None):
        started_at (datetime.datetime | None):
        status (AuditTaskReadStatus):
        findings (list[Finding] | None | Unset):
        findings_total (int | None | Unset):
    """

    created_at: datetime.datetime
    dataset_id: str
    error: None | str
    finished_at: datetime.datetime | None
    id: str
    kind: AuditTaskReadKind
    message: str
    params: AuditTaskReadParams
    progress: float
    result: AuditTaskReadResultType0 | None
    started_at: datetime.datetime | None
    status: AuditTaskReadStatus
    findings: list[Finding] | None | Unset = UNSET
    findings_total: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_task_read_result_type_0 import AuditTaskReadResultType0  # noqa: PLC0415

        created_at = self.created_at.isoformat()

        dataset_id = self.dataset_id

        error: None | str
        error = self.error

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        id = self.id

        kind = self.kind.value

        message = self.message

        params = self.params.to_dict()

        progress = self.progress

        result: dict[str, Any] | None
        if isinstance(self.result, AuditTaskReadResultType0):
            result = self.result.to_dict()
        else:
            result = self.result

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        status = self.status.value

        findings: list[dict[str, Any]] | None | Unset
        if isinstance(self.findings, Unset):
            findings = UNSET
        elif isinstance(self.findings, list):
            findings = []
            for findings_type_0_item_data in self.findings:
                findings_type_0_item = findings_type_0_item_data.to_dict()
                findings.append(findings_type_0_item)

        else:
            findings = self.findings

        findings_total: int | None | Unset
        if isinstance(self.findings_total, Unset):
            findings_total = UNSET
        else:
            findings_total = self.findings_total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "dataset_id": dataset_id,
                "error": error,
                "finished_at": finished_at,
                "id": id,
                "kind": kind,
                "message": message,
                "params": params,
                "progress": progress,
                "result": result,
                "started_at": started_at,
                "status": status,
            }
        )
        if findings is not UNSET:
            field_dict["findings"] = findings
        if findings_total is not UNSET:
            field_dict["findings_total"] = findings_total

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_task_read_params import AuditTaskReadParams  # noqa: PLC0415
        from ..models.audit_task_read_result_type_0 import AuditTaskReadResultType0  # noqa: PLC0415
        from ..models.finding import Finding  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        dataset_id = d.pop("dataset_id")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        id = d.pop("id")

        kind = AuditTaskReadKind(d.pop("kind"))

        message = d.pop("message")

        params = AuditTaskReadParams.from_dict(d.pop("params"))

        progress = d.pop("progress")

        def _parse_result(data: object) -> AuditTaskReadResultType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = AuditTaskReadResultType0.from_dict(data)

                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuditTaskReadResultType0 | None, data)

        result = _parse_result(d.pop("result"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))

        status = AuditTaskReadStatus(d.pop("status"))

        def _parse_findings(data: object) -> list[Finding] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                findings_type_0 = []
                _findings_type_0 = data
                for findings_type_0_item_data in _findings_type_0:
                    findings_type_0_item = Finding.from_dict(findings_type_0_item_data)

                    findings_type_0.append(findings_type_0_item)

                return findings_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Finding] | None | Unset, data)

        findings = _parse_findings(d.pop("findings", UNSET))

        def _parse_findings_total(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        findings_total = _parse_findings_total(d.pop("findings_total", UNSET))

        audit_task_read = cls(
            created_at=created_at,
            dataset_id=dataset_id,
            error=error,
            finished_at=finished_at,
            id=id,
            kind=kind,
            message=message,
            params=params,
            progress=progress,
            result=result,
            started_at=started_at,
            status=status,
            findings=findings,
            findings_total=findings_total,
        )

        audit_task_read.additional_properties = d
        return audit_task_read

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
