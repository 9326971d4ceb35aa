from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.category_comparison_values import CategoryComparisonValues


T = TypeVar("T", bound="CategoryComparison")


@_attrs_define
class CategoryComparison:
    """
    Attributes:
        category (str):
        size (int):
        values (CategoryComparisonValues):
    """

    category: str
    size: int
    values: CategoryComparisonValues
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        category = self.category

        size = self.size

        values = self.values.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "category": category,
                "size": size,
                "values": values,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.category_comparison_values import CategoryComparisonValues  # noqa: PLC0415

        d = dict(src_dict)
        category = d.pop("category")

        size = d.pop("size")

        values = CategoryComparisonValues.from_dict(d.pop("values"))

        category_comparison = cls(
            category=category,
            size=size,
            values=values,
        )

        category_comparison.additional_properties = d
        return category_comparison

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
