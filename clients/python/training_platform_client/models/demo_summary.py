from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.demo_summary_datasets import DemoSummaryDatasets


T = TypeVar("T", bound="DemoSummary")


@_attrs_define
class DemoSummary:
    """
    Attributes:
        created (list[str]):
        datasets (DemoSummaryDatasets):
        job_name (str):
        model_path (str):
    """

    created: list[str]
    datasets: DemoSummaryDatasets
    job_name: str
    model_path: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created = self.created

        datasets = self.datasets.to_dict()

        job_name = self.job_name

        model_path = self.model_path

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created": created,
                "datasets": datasets,
                "job_name": job_name,
                "model_path": model_path,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.demo_summary_datasets import DemoSummaryDatasets  # noqa: PLC0415

        d = dict(src_dict)
        created = cast(list[str], d.pop("created"))

        datasets = DemoSummaryDatasets.from_dict(d.pop("datasets"))

        job_name = d.pop("job_name")

        model_path = d.pop("model_path")

        demo_summary = cls(
            created=created,
            datasets=datasets,
            job_name=job_name,
            model_path=model_path,
        )

        demo_summary.additional_properties = d
        return demo_summary

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
