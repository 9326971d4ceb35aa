from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MetricRead")


@_attrs_define
class MetricRead:
    """
    Attributes:
        help_ (str):
        keys (list[str]):
        library (str):
        name (str):
        needs (list[str]):
        options (list[str]):
        scale (str):
    """

    help_: str
    keys: list[str]
    library: str
    name: str
    needs: list[str]
    options: list[str]
    scale: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        help_ = self.help_

        keys = self.keys

        library = self.library

        name = self.name

        needs = self.needs

        options = self.options

        scale = self.scale

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "help": help_,
                "keys": keys,
                "library": library,
                "name": name,
                "needs": needs,
                "options": options,
                "scale": scale,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        help_ = d.pop("help")

        keys = cast(list[str], d.pop("keys"))

        library = d.pop("library")

        name = d.pop("name")

        needs = cast(list[str], d.pop("needs"))

        options = cast(list[str], d.pop("options"))

        scale = d.pop("scale")

        metric_read = cls(
            help_=help_,
            keys=keys,
            library=library,
            name=name,
            needs=needs,
            options=options,
            scale=scale,
        )

        metric_read.additional_properties = d
        return metric_read

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
