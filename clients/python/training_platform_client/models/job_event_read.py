from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.job_status import JobStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="JobEventRead")


@_attrs_define
class JobEventRead:
    """
    Attributes:
        created_at (datetime.datetime):
        from_status (JobStatus | None):
        id (int):
        kind (str):
        message (str): In the language the request asked for (Accept-Language), English by default.
        to_status (JobStatus | None):
        code (None | str | Unset): The message's code (none for events older than codes).
    """

    created_at: datetime.datetime
    from_status: JobStatus | None
    id: int
    kind: str
    message: str
    to_status: JobStatus | None
    code: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        from_status: None | str
        if isinstance(self.from_status, JobStatus):
            from_status = self.from_status.value
        else:
            from_status = self.from_status

        id = self.id

        kind = self.kind

        message = self.message

        to_status: None | str
        if isinstance(self.to_status, JobStatus):
            to_status = self.to_status.value
        else:
            to_status = self.to_status

        code: None | str | Unset
        if isinstance(self.code, Unset):
            code = UNSET
        else:
            code = self.code

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "from_status": from_status,
                "id": id,
                "kind": kind,
                "message": message,
                "to_status": to_status,
            }
        )
        if code is not UNSET:
            field_dict["code"] = code

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_from_status(data: object) -> JobStatus | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_status_type_0 = JobStatus(data)

                return from_status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobStatus | None, data)

        from_status = _parse_from_status(d.pop("from_status"))

        id = d.pop("id")

        kind = d.pop("kind")

        message = d.pop("message")

        def _parse_to_status(data: object) -> JobStatus | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                to_status_type_0 = JobStatus(data)

                return to_status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobStatus | None, data)

        to_status = _parse_to_status(d.pop("to_status"))

        def _parse_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        code = _parse_code(d.pop("code", UNSET))

        job_event_read = cls(
            created_at=created_at,
            from_status=from_status,
            id=id,
            kind=kind,
            message=message,
            to_status=to_status,
            code=code,
        )

        job_event_read.additional_properties = d
        return job_event_read

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
