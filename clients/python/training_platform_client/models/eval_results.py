from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.eval_results_categories import EvalResultsCategories
    from ..models.eval_results_category_sizes import EvalResultsCategorySizes
    from ..models.eval_results_overall import EvalResultsOverall


T = TypeVar("T", bound="EvalResults")


@_attrs_define
class EvalResults:
    """A run's `results.json`: written once, when every sample is scored.

    Attributes:
        categories (EvalResultsCategories):
        category_sizes (EvalResultsCategorySizes):
        confidence (float):
        overall (EvalResultsOverall):
        samples (int):
        seconds (float):
    """

    categories: EvalResultsCategories
    category_sizes: EvalResultsCategorySizes
    confidence: float
    overall: EvalResultsOverall
    samples: int
    seconds: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        categories = self.categories.to_dict()

        category_sizes = self.category_sizes.to_dict()

        confidence = self.confidence

        overall = self.overall.to_dict()

        samples = self.samples

        seconds = self.seconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "categories": categories,
                "category_sizes": category_sizes,
                "confidence": confidence,
                "overall": overall,
                "samples": samples,
                "seconds": seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.eval_results_categories import EvalResultsCategories  # noqa: PLC0415
        from ..models.eval_results_category_sizes import EvalResultsCategorySizes  # noqa: PLC0415
        from ..models.eval_results_overall import EvalResultsOverall  # noqa: PLC0415

        d = dict(src_dict)
        categories = EvalResultsCategories.from_dict(d.pop("categories"))

        category_sizes = EvalResultsCategorySizes.from_dict(d.pop("category_sizes"))

        confidence = d.pop("confidence")

        overall = EvalResultsOverall.from_dict(d.pop("overall"))

        samples = d.pop("samples")

        seconds = d.pop("seconds")

        eval_results = cls(
            categories=categories,
            category_sizes=category_sizes,
            confidence=confidence,
            overall=overall,
            samples=samples,
            seconds=seconds,
        )

        eval_results.additional_properties = d
        return eval_results

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
