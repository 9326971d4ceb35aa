from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.dataset_sync_state import DatasetSyncState
from ..types import UNSET, Unset

T = TypeVar("T", bound="DatasetSync")


@_attrs_define
class DatasetSync:
    """A registered dataset's copy on a host.

    Attributes:
        dataset (str):
        dataset_id (str):
        state (DatasetSyncState):
        bytes_done (int | Unset):  Default: 0.
        bytes_total (int | Unset):  Default: 0.
        content_hash (None | str | Unset):
        error (None | str | Unset):
        updated_at (datetime.datetime | None | Unset):
    """

    dataset: str
    dataset_id: str
    state: DatasetSyncState
    bytes_done: int | Unset = 0
    bytes_total: int | Unset = 0
    content_hash: None | str | Unset = UNSET
    error: None | str | Unset = UNSET
    updated_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dataset = self.dataset

        dataset_id = self.dataset_id

        state = self.state.value

        bytes_done = self.bytes_done

        bytes_total = self.bytes_total

        content_hash: None | str | Unset
        if isinstance(self.content_hash, Unset):
            content_hash = UNSET
        else:
            content_hash = self.content_hash

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        updated_at: None | str | Unset
        if isinstance(self.updated_at, Unset):
            updated_at = UNSET
        elif isinstance(self.updated_at, datetime.datetime):
            updated_at = self.updated_at.isoformat()
        else:
            updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dataset": dataset,
                "dataset_id": dataset_id,
                "state": state,
            }
        )
        if bytes_done is not UNSET:
            field_dict["bytes_done"] = bytes_done
        if bytes_total is not UNSET:
            field_dict["bytes_total"] = bytes_total
        if content_hash is not UNSET:
            field_dict["content_hash"] = content_hash
        if error is not UNSET:
            field_dict["error"] = error
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        dataset = d.pop("dataset")

        dataset_id = d.pop("dataset_id")

        state = DatasetSyncState(d.pop("state"))

        bytes_done = d.pop("bytes_done", UNSET)

        bytes_total = d.pop("bytes_total", UNSET)

        def _parse_content_hash(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        content_hash = _parse_content_hash(d.pop("content_hash", UNSET))

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        def _parse_updated_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_at_type_0 = datetime.datetime.fromisoformat(data)

                return updated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        updated_at = _parse_updated_at(d.pop("updated_at", UNSET))

        dataset_sync = cls(
            dataset=dataset,
            dataset_id=dataset_id,
            state=state,
            bytes_done=bytes_done,
            bytes_total=bytes_total,
            content_hash=content_hash,
            error=error,
            updated_at=updated_at,
        )

        dataset_sync.additional_properties = d
        return dataset_sync

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
