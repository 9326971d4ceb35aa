from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.metric_comparison_differences import MetricComparisonDifferences
    from ..models.metric_comparison_values import MetricComparisonValues


T = TypeVar("T", bound="MetricComparison")


@_attrs_define
class MetricComparison:
    """
    Attributes:
        differences (MetricComparisonDifferences):
        key (str):
        values (MetricComparisonValues):
    """

    differences: MetricComparisonDifferences
    key: str
    values: MetricComparisonValues
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        differences = self.differences.to_dict()

        key = self.key

        values = self.values.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "differences": differences,
                "key": key,
                "values": values,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metric_comparison_differences import MetricComparisonDifferences  # noqa: PLC0415
        from ..models.metric_comparison_values import MetricComparisonValues  # noqa: PLC0415

        d = dict(src_dict)
        differences = MetricComparisonDifferences.from_dict(d.pop("differences"))

        key = d.pop("key")

        values = MetricComparisonValues.from_dict(d.pop("values"))

        metric_comparison = cls(
            differences=differences,
            key=key,
            values=values,
        )

        metric_comparison.additional_properties = d
        return metric_comparison

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
