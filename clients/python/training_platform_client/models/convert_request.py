from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.convert_request_format import ConvertRequestFormat
from ..types import UNSET, Unset

T = TypeVar("T", bound="ConvertRequest")


@_attrs_define
class ConvertRequest:
    """
    Attributes:
        format_ (ConvertRequestFormat | Unset): Layout of the engine that will read it. Default:
            ConvertRequestFormat.TRL.
        name (None | str | Unset): Name of the result (default: '<name>-trl').
        seed (int | Unset): Seed of the shuffle before the split. Default: 0.
        validation_fraction (float | Unset): Share of rows split off as a validation set; 0 keeps one dataset. Default:
            0.0.
    """

    format_: ConvertRequestFormat | Unset = ConvertRequestFormat.TRL
    name: None | str | Unset = UNSET
    seed: int | Unset = 0
    validation_fraction: float | Unset = 0.0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        format_: str | Unset = UNSET
        if not isinstance(self.format_, Unset):
            format_ = self.format_.value

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        seed = self.seed

        validation_fraction = self.validation_fraction

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if format_ is not UNSET:
            field_dict["format"] = format_
        if name is not UNSET:
            field_dict["name"] = name
        if seed is not UNSET:
            field_dict["seed"] = seed
        if validation_fraction is not UNSET:
            field_dict["validation_fraction"] = validation_fraction

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _format_ = d.pop("format", UNSET)
        format_: ConvertRequestFormat | Unset
        if isinstance(_format_, Unset):
            format_ = UNSET
        else:
            format_ = ConvertRequestFormat(_format_)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        seed = d.pop("seed", UNSET)

        validation_fraction = d.pop("validation_fraction", UNSET)

        convert_request = cls(
            format_=format_,
            name=name,
            seed=seed,
            validation_fraction=validation_fraction,
        )

        convert_request.additional_properties = d
        return convert_request

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
