from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.job_task_read_status import JobTaskReadStatus

if TYPE_CHECKING:
    from ..models.job_task_read_params import JobTaskReadParams
    from ..models.job_task_read_result_type_0 import JobTaskReadResultType0


T = TypeVar("T", bound="JobTaskRead")


@_attrs_define
class JobTaskRead:
    """A checkpoint export; once completed, `result` holds the checkpoint and the exported directory's path.

    Attributes:
        created_at (datetime.datetime):
        error (None | str):
        finished_at (datetime.datetime | None):
        id (str):
        job_id (str):
        kind (Literal['export']):
        message (str):
        params (JobTaskReadParams):
        progress (float):
        result (JobTaskReadResultType0 | None):
        started_at (datetime.datetime | None):
        status (JobTaskReadStatus):
    """

    created_at: datetime.datetime
    error: None | str
    finished_at: datetime.datetime | None
    id: str
    job_id: str
    kind: Literal["export"]
    message: str
    params: JobTaskReadParams
    progress: float
    result: JobTaskReadResultType0 | None
    started_at: datetime.datetime | None
    status: JobTaskReadStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.job_task_read_result_type_0 import JobTaskReadResultType0  # noqa: PLC0415

        created_at = self.created_at.isoformat()

        error: None | str
        error = self.error

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        id = self.id

        job_id = self.job_id

        kind = self.kind

        message = self.message

        params = self.params.to_dict()

        progress = self.progress

        result: dict[str, Any] | None
        if isinstance(self.result, JobTaskReadResultType0):
            result = self.result.to_dict()
        else:
            result = self.result

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "error": error,
                "finished_at": finished_at,
                "id": id,
                "job_id": job_id,
                "kind": kind,
                "message": message,
                "params": params,
                "progress": progress,
                "result": result,
                "started_at": started_at,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.job_task_read_params import JobTaskReadParams  # noqa: PLC0415
        from ..models.job_task_read_result_type_0 import JobTaskReadResultType0  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

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

        job_id = d.pop("job_id")

        kind = cast(Literal["export"], d.pop("kind"))
        if kind != "export":
            raise ValueError(f"kind must match const 'export', got '{kind}'")

        message = d.pop("message")

        params = JobTaskReadParams.from_dict(d.pop("params"))

        progress = d.pop("progress")

        def _parse_result(data: object) -> JobTaskReadResultType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = JobTaskReadResultType0.from_dict(data)

                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobTaskReadResultType0 | None, data)

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

        status = JobTaskReadStatus(d.pop("status"))

        job_task_read = cls(
            created_at=created_at,
            error=error,
            finished_at=finished_at,
            id=id,
            job_id=job_id,
            kind=kind,
            message=message,
            params=params,
            progress=progress,
            result=result,
            started_at=started_at,
            status=status,
        )

        job_task_read.additional_properties = d
        return job_task_read

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
