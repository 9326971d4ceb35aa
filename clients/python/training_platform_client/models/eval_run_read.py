from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.eval_results import EvalResults
    from ..models.job_read import JobRead


T = TypeVar("T", bound="EvalRunRead")


@_attrs_define
class EvalRunRead:
    """A run: its job, what it evaluated on what, how far it is, and its results once complete.

    Attributes:
        dataset (None | str):
        dataset_sha256 (None | str):
        job (JobRead):
        metric_keys (list[str]):
        results (EvalResults | None):
        scored (int):
        target (str):
        total (int | None):
        source_job (None | str | Unset):
        step (int | None | Unset):
    """

    dataset: None | str
    dataset_sha256: None | str
    job: JobRead
    metric_keys: list[str]
    results: EvalResults | None
    scored: int
    target: str
    total: int | None
    source_job: None | str | Unset = UNSET
    step: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.eval_results import EvalResults  # noqa: PLC0415

        dataset: None | str
        dataset = self.dataset

        dataset_sha256: None | str
        dataset_sha256 = self.dataset_sha256

        job = self.job.to_dict()

        metric_keys = self.metric_keys

        results: dict[str, Any] | None
        if isinstance(self.results, EvalResults):
            results = self.results.to_dict()
        else:
            results = self.results

        scored = self.scored

        target = self.target

        total: int | None
        total = self.total

        source_job: None | str | Unset
        if isinstance(self.source_job, Unset):
            source_job = UNSET
        else:
            source_job = self.source_job

        step: int | None | Unset
        if isinstance(self.step, Unset):
            step = UNSET
        else:
            step = self.step

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dataset": dataset,
                "dataset_sha256": dataset_sha256,
                "job": job,
                "metric_keys": metric_keys,
                "results": results,
                "scored": scored,
                "target": target,
                "total": total,
            }
        )
        if source_job is not UNSET:
            field_dict["source_job"] = source_job
        if step is not UNSET:
            field_dict["step"] = step

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.eval_results import EvalResults  # noqa: PLC0415
        from ..models.job_read import JobRead  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_dataset(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        dataset = _parse_dataset(d.pop("dataset"))

        def _parse_dataset_sha256(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        dataset_sha256 = _parse_dataset_sha256(d.pop("dataset_sha256"))

        job = JobRead.from_dict(d.pop("job"))

        metric_keys = cast(list[str], d.pop("metric_keys"))

        def _parse_results(data: object) -> EvalResults | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                results_type_0 = EvalResults.from_dict(data)

                return results_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EvalResults | None, data)

        results = _parse_results(d.pop("results"))

        scored = d.pop("scored")

        target = d.pop("target")

        def _parse_total(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        total = _parse_total(d.pop("total"))

        def _parse_source_job(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source_job = _parse_source_job(d.pop("source_job", UNSET))

        def _parse_step(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        step = _parse_step(d.pop("step", UNSET))

        eval_run_read = cls(
            dataset=dataset,
            dataset_sha256=dataset_sha256,
            job=job,
            metric_keys=metric_keys,
            results=results,
            scored=scored,
            target=target,
            total=total,
            source_job=source_job,
            step=step,
        )

        eval_run_read.additional_properties = d
        return eval_run_read

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
