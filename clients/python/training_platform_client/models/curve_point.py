from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.curve_point_values import CurvePointValues


T = TypeVar("T", bound="CurvePoint")


@_attrs_define
class CurvePoint:
    """
    Attributes:
        checkpoint (None | str):
        run (str):
        status (str):
        step (int | None):
        values (CurvePointValues):
    """

    checkpoint: None | str
    run: str
    status: str
    step: int | None
    values: CurvePointValues
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        checkpoint: None | str
        checkpoint = self.checkpoint

        run = self.run

        status = self.status

        step: int | None
        step = self.step

        values = self.values.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "checkpoint": checkpoint,
                "run": run,
                "status": status,
                "step": step,
                "values": values,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.curve_point_values import CurvePointValues  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_checkpoint(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        checkpoint = _parse_checkpoint(d.pop("checkpoint"))

        run = d.pop("run")

        status = d.pop("status")

        def _parse_step(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        step = _parse_step(d.pop("step"))

        values = CurvePointValues.from_dict(d.pop("values"))

        curve_point = cls(
            checkpoint=checkpoint,
            run=run,
            status=status,
            step=step,
            values=values,
        )

        curve_point.additional_properties = d
        return curve_point

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
