from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.category_comparison import CategoryComparison
    from ..models.comparison_read_counts import ComparisonReadCounts
    from ..models.metric_comparison import MetricComparison
    from ..models.sample_comparison import SampleComparison


T = TypeVar("T", bound="ComparisonRead")


@_attrs_define
class ComparisonRead:
    """
    Attributes:
        baseline (str):
        categories (list[CategoryComparison]):
        counts (ComparisonReadCounts):
        dataset (None | str):
        metric (str):
        metrics (list[MetricComparison]):
        runs (list[str]):
        samples (list[SampleComparison]):
        total (int):
    """

    baseline: str
    categories: list[CategoryComparison]
    counts: ComparisonReadCounts
    dataset: None | str
    metric: str
    metrics: list[MetricComparison]
    runs: list[str]
    samples: list[SampleComparison]
    total: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        baseline = self.baseline

        categories = []
        for categories_item_data in self.categories:
            categories_item = categories_item_data.to_dict()
            categories.append(categories_item)

        counts = self.counts.to_dict()

        dataset: None | str
        dataset = self.dataset

        metric = self.metric

        metrics = []
        for metrics_item_data in self.metrics:
            metrics_item = metrics_item_data.to_dict()
            metrics.append(metrics_item)

        runs = self.runs

        samples = []
        for samples_item_data in self.samples:
            samples_item = samples_item_data.to_dict()
            samples.append(samples_item)

        total = self.total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "baseline": baseline,
                "categories": categories,
                "counts": counts,
                "dataset": dataset,
                "metric": metric,
                "metrics": metrics,
                "runs": runs,
                "samples": samples,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.category_comparison import CategoryComparison  # noqa: PLC0415
        from ..models.comparison_read_counts import ComparisonReadCounts  # noqa: PLC0415
        from ..models.metric_comparison import MetricComparison  # noqa: PLC0415
        from ..models.sample_comparison import SampleComparison  # noqa: PLC0415

        d = dict(src_dict)
        baseline = d.pop("baseline")

        categories = []
        _categories = d.pop("categories")
        for categories_item_data in _categories:
            categories_item = CategoryComparison.from_dict(categories_item_data)

            categories.append(categories_item)

        counts = ComparisonReadCounts.from_dict(d.pop("counts"))

        def _parse_dataset(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        dataset = _parse_dataset(d.pop("dataset"))

        metric = d.pop("metric")

        metrics = []
        _metrics = d.pop("metrics")
        for metrics_item_data in _metrics:
            metrics_item = MetricComparison.from_dict(metrics_item_data)

            metrics.append(metrics_item)

        runs = cast(list[str], d.pop("runs"))

        samples = []
        _samples = d.pop("samples")
        for samples_item_data in _samples:
            samples_item = SampleComparison.from_dict(samples_item_data)

            samples.append(samples_item)

        total = d.pop("total")

        comparison_read = cls(
            baseline=baseline,
            categories=categories,
            counts=counts,
            dataset=dataset,
            metric=metric,
            metrics=metrics,
            runs=runs,
            samples=samples,
            total=total,
        )

        comparison_read.additional_properties = d
        return comparison_read

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
