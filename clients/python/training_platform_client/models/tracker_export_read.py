from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tracker_export_read_status import TrackerExportReadStatus

T = TypeVar("T", bound="TrackerExportRead")


@_attrs_define
class TrackerExportRead:
    """Where one of a job's exports stands. Made once the job has its first steps; none before.

    Attributes:
        exported_step (int | None): The last step the tracker took; none yet: nothing taken.
        failures (int): Requests the tracker failed in a row, since it last took one.
        kind (str):
        last_error (None | str): Why the last request failed, until one succeeds.
        next_attempt_at (datetime.datetime): When the next request is due (later after each failure).
        position (int): Its place in the job's trackers (or the platform's default).
        run_ref (None | str): The tracker's run: an MLflow run id, a W&B run id.
        status (TrackerExportReadStatus): closed: every step of an ended job is in the tracker, and its run is ended
            there.
        updated_at (datetime.datetime):
    """

    exported_step: int | None
    failures: int
    kind: str
    last_error: None | str
    next_attempt_at: datetime.datetime
    position: int
    run_ref: None | str
    status: TrackerExportReadStatus
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        exported_step: int | None
        exported_step = self.exported_step

        failures = self.failures

        kind = self.kind

        last_error: None | str
        last_error = self.last_error

        next_attempt_at = self.next_attempt_at.isoformat()

        position = self.position

        run_ref: None | str
        run_ref = self.run_ref

        status = self.status.value

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "exported_step": exported_step,
                "failures": failures,
                "kind": kind,
                "last_error": last_error,
                "next_attempt_at": next_attempt_at,
                "position": position,
                "run_ref": run_ref,
                "status": status,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_exported_step(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        exported_step = _parse_exported_step(d.pop("exported_step"))

        failures = d.pop("failures")

        kind = d.pop("kind")

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))

        next_attempt_at = datetime.datetime.fromisoformat(d.pop("next_attempt_at"))

        position = d.pop("position")

        def _parse_run_ref(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        run_ref = _parse_run_ref(d.pop("run_ref"))

        status = TrackerExportReadStatus(d.pop("status"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        tracker_export_read = cls(
            exported_step=exported_step,
            failures=failures,
            kind=kind,
            last_error=last_error,
            next_attempt_at=next_attempt_at,
            position=position,
            run_ref=run_ref,
            status=status,
            updated_at=updated_at,
        )

        tracker_export_read.additional_properties = d
        return tracker_export_read

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
