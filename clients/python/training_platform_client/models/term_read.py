from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TermRead")


@_attrs_define
class TermRead:
    """
    Attributes:
        bytes_ (int):
        category (str):
        explanation (str):
        formula (str):
        key (str):
    """

    bytes_: int
    category: str
    explanation: str
    formula: str
    key: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bytes_ = self.bytes_

        category = self.category

        explanation = self.explanation

        formula = self.formula

        key = self.key

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bytes": bytes_,
                "category": category,
                "explanation": explanation,
                "formula": formula,
                "key": key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bytes_ = d.pop("bytes")

        category = d.pop("category")

        explanation = d.pop("explanation")

        formula = d.pop("formula")

        key = d.pop("key")

        term_read = cls(
            bytes_=bytes_,
            category=category,
            explanation=explanation,
            formula=formula,
            key=key,
        )

        term_read.additional_properties = d
        return term_read

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
