from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FileTypesRead")


@_attrs_define
class FileTypesRead:
    """The file types a dataset file may be (datafiles/layout.py), uploaded or registered where it is; a folder
    registered where it is holds files of these types (docs/datasets.md).

        Attributes:
            suffixes (list[str]): e.g. .jsonl
            summary (str): The suffixes in one phrase, as help texts show them.
    """

    suffixes: list[str]
    summary: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        suffixes = self.suffixes

        summary = self.summary

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "suffixes": suffixes,
                "summary": summary,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        suffixes = cast(list[str], d.pop("suffixes"))

        summary = d.pop("summary")

        file_types_read = cls(
            suffixes=suffixes,
            summary=summary,
        )

        file_types_read.additional_properties = d
        return file_types_read

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
