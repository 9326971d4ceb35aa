from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.stage_status import StageStatus

if TYPE_CHECKING:
    from ..models.work_read import WorkRead


T = TypeVar("T", bound="StageTask")


@_attrs_define
class StageTask:
    """What a stage's task is told: its work's state, and whether it still holds the stage.

    Attributes:
        holds (bool): False once another task took the stage, or it was cancelled: stop following it.
        lease_seconds (float):
        settled (bool): The work has ended (done, failed or stopped): settle the stage now.
        status (StageStatus):
        work (None | WorkRead):
    """

    holds: bool
    lease_seconds: float
    settled: bool
    status: StageStatus
    work: None | WorkRead
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.work_read import WorkRead  # noqa: PLC0415

        holds = self.holds

        lease_seconds = self.lease_seconds

        settled = self.settled

        status = self.status.value

        work: dict[str, Any] | None
        if isinstance(self.work, WorkRead):
            work = self.work.to_dict()
        else:
            work = self.work

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "holds": holds,
                "lease_seconds": lease_seconds,
                "settled": settled,
                "status": status,
                "work": work,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.work_read import WorkRead  # noqa: PLC0415

        d = dict(src_dict)
        holds = d.pop("holds")

        lease_seconds = d.pop("lease_seconds")

        settled = d.pop("settled")

        status = StageStatus(d.pop("status"))

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

        stage_task = cls(
            holds=holds,
            lease_seconds=lease_seconds,
            settled=settled,
            status=status,
            work=work,
        )

        stage_task.additional_properties = d
        return stage_task

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
