from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_read_status import DeliveryReadStatus

if TYPE_CHECKING:
    from ..models.attempt_read import AttemptRead


T = TypeVar("T", bound="DeliveryRead")


@_attrs_define
class DeliveryRead:
    """One event to one target: where it stands, and every request made for it.

    Attributes:
        attempts (list[AttemptRead]):
        created_at (datetime.datetime):
        delivered_at (datetime.datetime | None):
        event_key (str):
        id (int):
        kind (str):
        last_error (None | str):
        next_attempt_at (datetime.datetime | None): When it is tried again; None once it is settled.
        severity (str):
        status (DeliveryReadStatus):
        target_id (str):
        title (str):
    """

    attempts: list[AttemptRead]
    created_at: datetime.datetime
    delivered_at: datetime.datetime | None
    event_key: str
    id: int
    kind: str
    last_error: None | str
    next_attempt_at: datetime.datetime | None
    severity: str
    status: DeliveryReadStatus
    target_id: str
    title: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        created_at = self.created_at.isoformat()

        delivered_at: None | str
        if isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        event_key = self.event_key

        id = self.id

        kind = self.kind

        last_error: None | str
        last_error = self.last_error

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        severity = self.severity

        status = self.status.value

        target_id = self.target_id

        title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempts": attempts,
                "created_at": created_at,
                "delivered_at": delivered_at,
                "event_key": event_key,
                "id": id,
                "kind": kind,
                "last_error": last_error,
                "next_attempt_at": next_attempt_at,
                "severity": severity,
                "status": status,
                "target_id": target_id,
                "title": title,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attempt_read import AttemptRead  # noqa: PLC0415

        d = dict(src_dict)
        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = AttemptRead.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_delivered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        delivered_at = _parse_delivered_at(d.pop("delivered_at"))

        event_key = d.pop("event_key")

        id = d.pop("id")

        kind = d.pop("kind")

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))

        severity = d.pop("severity")

        status = DeliveryReadStatus(d.pop("status"))

        target_id = d.pop("target_id")

        title = d.pop("title")

        delivery_read = cls(
            attempts=attempts,
            created_at=created_at,
            delivered_at=delivered_at,
            event_key=event_key,
            id=id,
            kind=kind,
            last_error=last_error,
            next_attempt_at=next_attempt_at,
            severity=severity,
            status=status,
            target_id=target_id,
            title=title,
        )

        delivery_read.additional_properties = d
        return delivery_read

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
