from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SelectedCheckpoint")


@_attrs_define
class SelectedCheckpoint:
    """
    Attributes:
        name (str):
        path (str):
        reference (str): How to name it wherever a model is chosen: job:<job>@<checkpoint>.
        step (int):
        value (float | None): The metric's value for it; None for rule 'last'.
        value_step (int | None): The step the value was recorded at (at or before the checkpoint's).
    """

    name: str
    path: str
    reference: str
    step: int
    value: float | None
    value_step: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        path = self.path

        reference = self.reference

        step = self.step

        value: float | None
        value = self.value

        value_step: int | None
        value_step = self.value_step

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "path": path,
                "reference": reference,
                "step": step,
                "value": value,
                "value_step": value_step,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        path = d.pop("path")

        reference = d.pop("reference")

        step = d.pop("step")

        def _parse_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        value = _parse_value(d.pop("value"))

        def _parse_value_step(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        value_step = _parse_value_step(d.pop("value_step"))

        selected_checkpoint = cls(
            name=name,
            path=path,
            reference=reference,
            step=step,
            value=value,
            value_step=value_step,
        )

        selected_checkpoint.additional_properties = d
        return selected_checkpoint

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
