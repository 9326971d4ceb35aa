from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.imported_entry_outcome import ImportedEntryOutcome
from ..types import UNSET, Unset

T = TypeVar("T", bound="ImportedEntry")


@_attrs_define
class ImportedEntry:
    """What became of one entry of a dataset_info.json.

    Attributes:
        entry (str):
        outcome (ImportedEntryOutcome):
        dataset (None | str | Unset):
        kind (None | str | Unset):
        notes (list[str] | Unset):
        path (None | str | Unset):
        preset (None | str | Unset):
        reason (None | str | Unset):
    """

    entry: str
    outcome: ImportedEntryOutcome
    dataset: None | str | Unset = UNSET
    kind: None | str | Unset = UNSET
    notes: list[str] | Unset = UNSET
    path: None | str | Unset = UNSET
    preset: None | str | Unset = UNSET
    reason: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entry = self.entry

        outcome = self.outcome.value

        dataset: None | str | Unset
        if isinstance(self.dataset, Unset):
            dataset = UNSET
        else:
            dataset = self.dataset

        kind: None | str | Unset
        if isinstance(self.kind, Unset):
            kind = UNSET
        else:
            kind = self.kind

        notes: list[str] | Unset = UNSET
        if not isinstance(self.notes, Unset):
            notes = self.notes

        path: None | str | Unset
        if isinstance(self.path, Unset):
            path = UNSET
        else:
            path = self.path

        preset: None | str | Unset
        if isinstance(self.preset, Unset):
            preset = UNSET
        else:
            preset = self.preset

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entry": entry,
                "outcome": outcome,
            }
        )
        if dataset is not UNSET:
            field_dict["dataset"] = dataset
        if kind is not UNSET:
            field_dict["kind"] = kind
        if notes is not UNSET:
            field_dict["notes"] = notes
        if path is not UNSET:
            field_dict["path"] = path
        if preset is not UNSET:
            field_dict["preset"] = preset
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        entry = d.pop("entry")

        outcome = ImportedEntryOutcome(d.pop("outcome"))

        def _parse_dataset(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        dataset = _parse_dataset(d.pop("dataset", UNSET))

        def _parse_kind(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        kind = _parse_kind(d.pop("kind", UNSET))

        notes = cast(list[str], d.pop("notes", UNSET))

        def _parse_path(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        path = _parse_path(d.pop("path", UNSET))

        def _parse_preset(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        preset = _parse_preset(d.pop("preset", UNSET))

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        imported_entry = cls(
            entry=entry,
            outcome=outcome,
            dataset=dataset,
            kind=kind,
            notes=notes,
            path=path,
            preset=preset,
            reason=reason,
        )

        imported_entry.additional_properties = d
        return imported_entry

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
