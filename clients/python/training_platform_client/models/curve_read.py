from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.curve_point import CurvePoint


T = TypeVar("T", bound="CurveRead")


@_attrs_define
class CurveRead:
    """
    Attributes:
        job (str):
        metric_keys (list[str]):
        points (list[CurvePoint]):
    """

    job: str
    metric_keys: list[str]
    points: list[CurvePoint]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        job = self.job

        metric_keys = self.metric_keys

        points = []
        for points_item_data in self.points:
            points_item = points_item_data.to_dict()
            points.append(points_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "job": job,
                "metric_keys": metric_keys,
                "points": points,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.curve_point import CurvePoint  # noqa: PLC0415

        d = dict(src_dict)
        job = d.pop("job")

        metric_keys = cast(list[str], d.pop("metric_keys"))

        points = []
        _points = d.pop("points")
        for points_item_data in _points:
            points_item = CurvePoint.from_dict(points_item_data)

            points.append(points_item)

        curve_read = cls(
            job=job,
            metric_keys=metric_keys,
            points=points,
        )

        curve_read.additional_properties = d
        return curve_read

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
