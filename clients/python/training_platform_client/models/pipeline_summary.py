from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.pipeline_status import PipelineStatus

if TYPE_CHECKING:
    from ..models.pipeline_summary_stage_counts import PipelineSummaryStageCounts


T = TypeVar("T", bound="PipelineSummary")


@_attrs_define
class PipelineSummary:
    """
    Attributes:
        created_at (datetime.datetime):
        description (str):
        finished_at (datetime.datetime | None):
        id (str):
        name (str):
        owner (None | str): Who created it: members change only their own.
        stage_counts (PipelineSummaryStageCounts):
        started_at (datetime.datetime | None):
        status (PipelineStatus):
    """

    created_at: datetime.datetime
    description: str
    finished_at: datetime.datetime | None
    id: str
    name: str
    owner: None | str
    stage_counts: PipelineSummaryStageCounts
    started_at: datetime.datetime | None
    status: PipelineStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        description = self.description

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        id = self.id

        name = self.name

        owner: None | str
        owner = self.owner

        stage_counts = self.stage_counts.to_dict()

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
                "description": description,
                "finished_at": finished_at,
                "id": id,
                "name": name,
                "owner": owner,
                "stage_counts": stage_counts,
                "started_at": started_at,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pipeline_summary_stage_counts import PipelineSummaryStageCounts  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        description = d.pop("description")

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

        name = d.pop("name")

        def _parse_owner(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        owner = _parse_owner(d.pop("owner"))

        stage_counts = PipelineSummaryStageCounts.from_dict(d.pop("stage_counts"))

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

        pipeline_summary = cls(
            created_at=created_at,
            description=description,
            finished_at=finished_at,
            id=id,
            name=name,
            owner=owner,
            stage_counts=stage_counts,
            started_at=started_at,
            status=status,
        )

        pipeline_summary.additional_properties = d
        return pipeline_summary

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
