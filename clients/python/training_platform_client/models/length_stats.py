from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.histogram import Histogram


T = TypeVar("T", bound="LengthStats")


@_attrs_define
class LengthStats:
    """
    Attributes:
        count (int):
        field (str):
        histogram (Histogram):
        max_ (int):
        mean (float):
        min_ (int):
        p50 (float):
        p90 (float):
        p99 (float):
    """

    count: int
    field: str
    histogram: Histogram
    max_: int
    mean: float
    min_: int
    p50: float
    p90: float
    p99: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        field = self.field

        histogram = self.histogram.to_dict()

        max_ = self.max_

        mean = self.mean

        min_ = self.min_

        p50 = self.p50

        p90 = self.p90

        p99 = self.p99

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "count": count,
                "field": field,
                "histogram": histogram,
                "max": max_,
                "mean": mean,
                "min": min_,
                "p50": p50,
                "p90": p90,
                "p99": p99,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.histogram import Histogram  # noqa: PLC0415

        d = dict(src_dict)
        count = d.pop("count")

        field = d.pop("field")

        histogram = Histogram.from_dict(d.pop("histogram"))

        max_ = d.pop("max")

        mean = d.pop("mean")

        min_ = d.pop("min")

        p50 = d.pop("p50")

        p90 = d.pop("p90")

        p99 = d.pop("p99")

        length_stats = cls(
            count=count,
            field=field,
            histogram=histogram,
            max_=max_,
            mean=mean,
            min_=min_,
            p50=p50,
            p90=p90,
            p99=p99,
        )

        length_stats.additional_properties = d
        return length_stats

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
