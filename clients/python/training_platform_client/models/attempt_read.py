from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AttemptRead")


@_attrs_define
class AttemptRead:
    """
    Attributes:
        attempted_at (datetime.datetime):
        duration_ms (float):
        error (None | str):
        id (int):
        ok (bool):
        outbox_id (int):
        status_code (int | None):
    """

    attempted_at: datetime.datetime
    duration_ms: float
    error: None | str
    id: int
    ok: bool
    outbox_id: int
    status_code: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempted_at = self.attempted_at.isoformat()

        duration_ms = self.duration_ms

        error: None | str
        error = self.error

        id = self.id

        ok = self.ok

        outbox_id = self.outbox_id

        status_code: int | None
        status_code = self.status_code

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempted_at": attempted_at,
                "duration_ms": duration_ms,
                "error": error,
                "id": id,
                "ok": ok,
                "outbox_id": outbox_id,
                "status_code": status_code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempted_at = datetime.datetime.fromisoformat(d.pop("attempted_at"))

        duration_ms = d.pop("duration_ms")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        id = d.pop("id")

        ok = d.pop("ok")

        outbox_id = d.pop("outbox_id")

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("status_code"))

        attempt_read = cls(
            attempted_at=attempted_at,
            duration_ms=duration_ms,
            error=error,
            id=id,
            ok=ok,
            outbox_id=outbox_id,
            status_code=status_code,
        )

        attempt_read.additional_properties = d
        return attempt_read

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
