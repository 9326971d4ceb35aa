from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.stage_status import StageStatus
from ..models.stage_type import StageType

if TYPE_CHECKING:
    from ..models.stage_read_outputs_type_0 import StageReadOutputsType0
    from ..models.stage_read_params import StageReadParams
    from ..models.work_read import WorkRead


T = TypeVar("T", bound="StageRead")


@_attrs_define
class StageRead:
    """
    Attributes:
        attempt (int): 1 for the first attempt; 0 before any.
        depends_on (list[str]):
        dispatched_at (datetime.datetime | None):
        edited (bool): Its parameters changed since it finished; resume with it in `rerun` to redo it.
        error (None | str):
        finished_at (datetime.datetime | None):
        layer (int):
        max_attempts (int):
        name (str):
        outputs (None | StageReadOutputsType0):
        params (StageReadParams):
        started_at (datetime.datetime | None):
        status (StageStatus):
        task_id (None | str): The task running (or last running) the stage: a Celery task's id.
        type_ (StageType):
        when (None | str):
        work (None | WorkRead):
        worker (None | str):
    """

    attempt: int
    depends_on: list[str]
    dispatched_at: datetime.datetime | None
    edited: bool
    error: None | str
    finished_at: datetime.datetime | None
    layer: int
    max_attempts: int
    name: str
    outputs: None | StageReadOutputsType0
    params: StageReadParams
    started_at: datetime.datetime | None
    status: StageStatus
    task_id: None | str
    type_: StageType
    when: None | str
    work: None | WorkRead
    worker: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.stage_read_outputs_type_0 import StageReadOutputsType0  # noqa: PLC0415
        from ..models.work_read import WorkRead  # noqa: PLC0415

        attempt = self.attempt

        depends_on = self.depends_on

        dispatched_at: None | str
        if isinstance(self.dispatched_at, datetime.datetime):
            dispatched_at = self.dispatched_at.isoformat()
        else:
            dispatched_at = self.dispatched_at

        edited = self.edited

        error: None | str
        error = self.error

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        layer = self.layer

        max_attempts = self.max_attempts

        name = self.name

        outputs: dict[str, Any] | None
        if isinstance(self.outputs, StageReadOutputsType0):
            outputs = self.outputs.to_dict()
        else:
            outputs = self.outputs

        params = self.params.to_dict()

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        status = self.status.value

        task_id: None | str
        task_id = self.task_id

        type_ = self.type_.value

        when: None | str
        when = self.when

        work: dict[str, Any] | None
        if isinstance(self.work, WorkRead):
            work = self.work.to_dict()
        else:
            work = self.work

        worker: None | str
        worker = self.worker

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempt": attempt,
                "depends_on": depends_on,
                "dispatched_at": dispatched_at,
                "edited": edited,
                "error": error,
                "finished_at": finished_at,
                "layer": layer,
                "max_attempts": max_attempts,
                "name": name,
                "outputs": outputs,
                "params": params,
                "started_at": started_at,
                "status": status,
                "task_id": task_id,
                "type": type_,
                "when": when,
                "work": work,
                "worker": worker,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stage_read_outputs_type_0 import StageReadOutputsType0  # noqa: PLC0415
        from ..models.stage_read_params import StageReadParams  # noqa: PLC0415
        from ..models.work_read import WorkRead  # noqa: PLC0415

        d = dict(src_dict)
        attempt = d.pop("attempt")

        depends_on = cast(list[str], d.pop("depends_on"))

        def _parse_dispatched_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                dispatched_at_type_0 = datetime.datetime.fromisoformat(data)

                return dispatched_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        dispatched_at = _parse_dispatched_at(d.pop("dispatched_at"))

        edited = d.pop("edited")

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

        layer = d.pop("layer")

        max_attempts = d.pop("max_attempts")

        name = d.pop("name")

        def _parse_outputs(data: object) -> None | StageReadOutputsType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                outputs_type_0 = StageReadOutputsType0.from_dict(data)

                return outputs_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | StageReadOutputsType0, data)

        outputs = _parse_outputs(d.pop("outputs"))

        params = StageReadParams.from_dict(d.pop("params"))

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

        status = StageStatus(d.pop("status"))

        def _parse_task_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        task_id = _parse_task_id(d.pop("task_id"))

        type_ = StageType(d.pop("type"))

        def _parse_when(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        when = _parse_when(d.pop("when"))

        def _parse_work(data: object) -> None | WorkRead:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                work_type_0 = WorkRead.from_dict(data)

                return work_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | WorkRead, data)

        work = _parse_work(d.pop("work"))

        def _parse_worker(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        worker = _parse_worker(d.pop("worker"))

        stage_read = cls(
            attempt=attempt,
            depends_on=depends_on,
            dispatched_at=dispatched_at,
            edited=edited,
            error=error,
            finished_at=finished_at,
            layer=layer,
            max_attempts=max_attempts,
            name=name,
            outputs=outputs,
            params=params,
            started_at=started_at,
            status=status,
            task_id=task_id,
            type_=type_,
            when=when,
            work=work,
            worker=worker,
        )

        stage_read.additional_properties = d
        return stage_read

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
