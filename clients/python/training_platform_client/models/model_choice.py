from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.model_choice_kind import ModelChoiceKind

if TYPE_CHECKING:
    from ..models.model_choice_metrics import ModelChoiceMetrics


T = TypeVar("T", bound="ModelChoice")


@_attrs_define
class ModelChoice:
    """A model that can be chosen: a registered one, a job's final model, or a complete checkpoint of a job.

    Attributes:
        adapter (bool): A LoRA adapter (fold it into its base to use it as a model).
        algorithm (None | str):
        job_id (None | str):
        job_name (None | str):
        kind (ModelChoiceKind):
        label (str):
        metrics (ModelChoiceMetrics): The job's recorded values at the checkpoint's step.
        path (str):
        reference (str):
        step (int | None):
    """

    adapter: bool
    algorithm: None | str
    job_id: None | str
    job_name: None | str
    kind: ModelChoiceKind
    label: str
    metrics: ModelChoiceMetrics
    path: str
    reference: str
    step: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        adapter = self.adapter

        algorithm: None | str
        algorithm = self.algorithm

        job_id: None | str
        job_id = self.job_id

        job_name: None | str
        job_name = self.job_name

        kind = self.kind.value

        label = self.label

        metrics = self.metrics.to_dict()

        path = self.path

        reference = self.reference

        step: int | None
        step = self.step

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "adapter": adapter,
                "algorithm": algorithm,
                "job_id": job_id,
                "job_name": job_name,
                "kind": kind,
                "label": label,
                "metrics": metrics,
                "path": path,
                "reference": reference,
                "step": step,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.model_choice_metrics import ModelChoiceMetrics  # noqa: PLC0415

        d = dict(src_dict)
        adapter = d.pop("adapter")

        def _parse_algorithm(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        algorithm = _parse_algorithm(d.pop("algorithm"))

        def _parse_job_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        job_id = _parse_job_id(d.pop("job_id"))

        def _parse_job_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        job_name = _parse_job_name(d.pop("job_name"))

        kind = ModelChoiceKind(d.pop("kind"))

        label = d.pop("label")

        metrics = ModelChoiceMetrics.from_dict(d.pop("metrics"))

        path = d.pop("path")

        reference = d.pop("reference")

        def _parse_step(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        step = _parse_step(d.pop("step"))

        model_choice = cls(
            adapter=adapter,
            algorithm=algorithm,
            job_id=job_id,
            job_name=job_name,
            kind=kind,
            label=label,
            metrics=metrics,
            path=path,
            reference=reference,
            step=step,
        )

        model_choice.additional_properties = d
        return model_choice

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
