from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.completion_sample import CompletionSample


T = TypeVar("T", bound="CompletionSamplesPage")


@_attrs_define
class CompletionSamplesPage:
    """
    Attributes:
        samples (list[CompletionSample]):
        step (int | None): The step shown: the one asked for, else the latest; none without samples.
        steps (list[int]): The steps that have samples, in order.
        total (int): The samples of that step.
    """

    samples: list[CompletionSample]
    step: int | None
    steps: list[int]
    total: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        samples = []
        for samples_item_data in self.samples:
            samples_item = samples_item_data.to_dict()
            samples.append(samples_item)

        step: int | None
        step = self.step

        steps = self.steps

        total = self.total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "samples": samples,
                "step": step,
                "steps": steps,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.completion_sample import CompletionSample  # noqa: PLC0415

        d = dict(src_dict)
        samples = []
        _samples = d.pop("samples")
        for samples_item_data in _samples:
            samples_item = CompletionSample.from_dict(samples_item_data)

            samples.append(samples_item)

        def _parse_step(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        step = _parse_step(d.pop("step"))

        steps = cast(list[int], d.pop("steps"))

        total = d.pop("total")

        completion_samples_page = cls(
            samples=samples,
            step=step,
            steps=steps,
            total=total,
        )

        completion_samples_page.additional_properties = d
        return completion_samples_page

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
