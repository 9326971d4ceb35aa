from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CheckpointRead")


@_attrs_define
class CheckpointRead:
    """
    Attributes:
        complete (bool):
        created_at (datetime.datetime):
        kind (str):
        name (str):
        path (str):
        size_bytes (int):
        step (int | None):
    """

    complete: bool
    created_at: datetime.datetime
    kind: str
    name: str
    path: str
    size_bytes: int
    step: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        complete = self.complete

        created_at = self.created_at.isoformat()

        kind = self.kind

        name = self.name

        path = self.path

        size_bytes = self.size_bytes

        step: int | None
        step = self.step

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "complete": complete,
                "created_at": created_at,
                "kind": kind,
                "name": name,
                "path": path,
                "size_bytes": size_bytes,
                "step": step,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        complete = d.pop("complete")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        kind = d.pop("kind")

        name = d.pop("name")

        path = d.pop("path")

        size_bytes = d.pop("size_bytes")

        def _parse_step(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        step = _parse_step(d.pop("step"))

        checkpoint_read = cls(
            complete=complete,
            created_at=created_at,
            kind=kind,
            name=name,
            path=path,
            size_bytes=size_bytes,
            step=step,
        )

        checkpoint_read.additional_properties = d
        return checkpoint_read

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
