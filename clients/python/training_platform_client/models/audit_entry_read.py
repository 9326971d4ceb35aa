from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AuditEntryRead")


@_attrs_define
class AuditEntryRead:
    """
    Attributes:
        action (str):
        actor (str):
        client (None | str):
        created_at (datetime.datetime):
        detail (str):
        id (int):
        resource_id (None | str):
        resource_kind (None | str):
        resource_name (None | str):
    """

    action: str
    actor: str
    client: None | str
    created_at: datetime.datetime
    detail: str
    id: int
    resource_id: None | str
    resource_kind: None | str
    resource_name: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action

        actor = self.actor

        client: None | str
        client = self.client

        created_at = self.created_at.isoformat()

        detail = self.detail

        id = self.id

        resource_id: None | str
        resource_id = self.resource_id

        resource_kind: None | str
        resource_kind = self.resource_kind

        resource_name: None | str
        resource_name = self.resource_name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "actor": actor,
                "client": client,
                "created_at": created_at,
                "detail": detail,
                "id": id,
                "resource_id": resource_id,
                "resource_kind": resource_kind,
                "resource_name": resource_name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = d.pop("action")

        actor = d.pop("actor")

        def _parse_client(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        client = _parse_client(d.pop("client"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        detail = d.pop("detail")

        id = d.pop("id")

        def _parse_resource_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        resource_id = _parse_resource_id(d.pop("resource_id"))

        def _parse_resource_kind(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        resource_kind = _parse_resource_kind(d.pop("resource_kind"))

        def _parse_resource_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        resource_name = _parse_resource_name(d.pop("resource_name"))

        audit_entry_read = cls(
            action=action,
            actor=actor,
            client=client,
            created_at=created_at,
            detail=detail,
            id=id,
            resource_id=resource_id,
            resource_kind=resource_kind,
            resource_name=resource_name,
        )

        audit_entry_read.additional_properties = d
        return audit_entry_read

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
