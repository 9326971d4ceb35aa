from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.task_read_kind import TaskReadKind
from ..models.task_read_status import TaskReadStatus

if TYPE_CHECKING:
    from ..models.task_read_params import TaskReadParams
    from ..models.task_read_result_type_0 import TaskReadResultType0


T = TypeVar("T", bound="TaskRead")


@_attrs_define
class TaskRead:
    """
    Attributes:
        created_at (datetime.datetime):
        dataset_id (str):
        error (None | str):
        finished_at (datetime.datetime | None):
        id (str):
        kind (TaskReadKind):
        message (str):
        params (TaskReadParams):
        progress (float):
        result (None | TaskReadResultType0):
        started_at (datetime.datetime | None):
        status (TaskReadStatus):
    """

    created_at: datetime.datetime
    dataset_id: str
    error: None | str
    finished_at: datetime.datetime | None
    id: str
    kind: TaskReadKind
    message: str
    params: TaskReadParams
    progress: float
    result: None | TaskReadResultType0
    started_at: datetime.datetime | None
    status: TaskReadStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.task_read_result_type_0 import TaskReadResultType0  # noqa: PLC0415

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
        if isinstance(self.result, TaskReadResultType0):
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

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.task_read_params import TaskReadParams  # noqa: PLC0415
        from ..models.task_read_result_type_0 import TaskReadResultType0  # noqa: PLC0415

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

        kind = TaskReadKind(d.pop("kind"))

        message = d.pop("message")

        params = TaskReadParams.from_dict(d.pop("params"))

        progress = d.pop("progress")

        def _parse_result(data: object) -> None | TaskReadResultType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = TaskReadResultType0.from_dict(data)

                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TaskReadResultType0, data)

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

        status = TaskReadStatus(d.pop("status"))

        task_read = cls(
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
        )

        task_read.additional_properties = d
        return task_read

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
