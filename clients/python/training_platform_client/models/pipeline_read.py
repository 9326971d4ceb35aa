from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.pipeline_read_executor import PipelineReadExecutor
from ..models.pipeline_status import PipelineStatus

if TYPE_CHECKING:
    from ..models.pipeline_definition import PipelineDefinition
    from ..models.pipeline_read_stage_counts import PipelineReadStageCounts
    from ..models.stage_read import StageRead


T = TypeVar("T", bound="PipelineRead")


@_attrs_define
class PipelineRead:
    """
    Attributes:
        concurrency (int):
        created_at (datetime.datetime):
        definition (PipelineDefinition):
        description (str):
        error (None | str):
        executor (PipelineReadExecutor):
        finished_at (datetime.datetime | None):
        id (str):
        layers (list[list[str]]):
        name (str):
        owner (None | str): Who created it: members change only their own.
        stage_counts (PipelineReadStageCounts):
        stages (list[StageRead]):
        started_at (datetime.datetime | None):
        status (PipelineStatus):
        text (None | str): The YAML it was written in, if it was.
    """

    concurrency: int
    created_at: datetime.datetime
    definition: PipelineDefinition
    description: str
    error: None | str
    executor: PipelineReadExecutor
    finished_at: datetime.datetime | None
    id: str
    layers: list[list[str]]
    name: str
    owner: None | str
    stage_counts: PipelineReadStageCounts
    stages: list[StageRead]
    started_at: datetime.datetime | None
    status: PipelineStatus
    text: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        concurrency = self.concurrency

        created_at = self.created_at.isoformat()

        definition = self.definition.to_dict()

        description = self.description

        error: None | str
        error = self.error

        executor = self.executor.value

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        id = self.id

        layers = []
        for layers_item_data in self.layers:
            layers_item = layers_item_data

            layers.append(layers_item)

        name = self.name

        owner: None | str
        owner = self.owner

        stage_counts = self.stage_counts.to_dict()

        stages = []
        for stages_item_data in self.stages:
            stages_item = stages_item_data.to_dict()
            stages.append(stages_item)

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        status = self.status.value

        text: None | str
        text = self.text

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "concurrency": concurrency,
                "created_at": created_at,
                "definition": definition,
                "description": description,
                "error": error,
                "executor": executor,
                "finished_at": finished_at,
                "id": id,
                "layers": layers,
                "name": name,
                "owner": owner,
                "stage_counts": stage_counts,
                "stages": stages,
                "started_at": started_at,
                "status": status,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pipeline_definition import PipelineDefinition  # noqa: PLC0415
        from ..models.pipeline_read_stage_counts import PipelineReadStageCounts  # noqa: PLC0415
        from ..models.stage_read import StageRead  # noqa: PLC0415

        d = dict(src_dict)
        concurrency = d.pop("concurrency")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        definition = PipelineDefinition.from_dict(d.pop("definition"))

        description = d.pop("description")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        executor = PipelineReadExecutor(d.pop("executor"))

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

        layers = []
        _layers = d.pop("layers")
        for layers_item_data in _layers:
            layers_item = cast(list[str], layers_item_data)

            layers.append(layers_item)

        name = d.pop("name")

        def _parse_owner(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        owner = _parse_owner(d.pop("owner"))

        stage_counts = PipelineReadStageCounts.from_dict(d.pop("stage_counts"))

        stages = []
        _stages = d.pop("stages")
        for stages_item_data in _stages:
            stages_item = StageRead.from_dict(stages_item_data)

            stages.append(stages_item)

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

        status = PipelineStatus(d.pop("status"))

        def _parse_text(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        text = _parse_text(d.pop("text"))

        pipeline_read = cls(
            concurrency=concurrency,
            created_at=created_at,
            definition=definition,
            description=description,
            error=error,
            executor=executor,
            finished_at=finished_at,
            id=id,
            layers=layers,
            name=name,
            owner=owner,
            stage_counts=stage_counts,
            stages=stages,
            started_at=started_at,
            status=status,
            text=text,
        )

        pipeline_read.additional_properties = d
        return pipeline_read

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
