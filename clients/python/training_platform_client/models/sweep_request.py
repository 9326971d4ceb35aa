from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.generation_settings import GenerationSettings
    from ..models.metric_request import MetricRequest


T = TypeVar("T", bound="SweepRequest")


@_attrs_define
class SweepRequest:
    """Evaluate a job's complete checkpoints, every `every`-th of them (its last one always), and its final model.

    Attributes:
        dataset (str): A registered eval dataset, by name or id.
        job (str):
        metrics (list[MetricRequest]):
        batch_size (int | Unset):  Default: 8.
        bootstrap_resamples (int | Unset):  Default: 1000.
        confidence (float | Unset):  Default: 0.95.
        every (int | Unset):  Default: 1.
        generation (GenerationSettings | Unset):
        include_final (bool | Unset):  Default: True.
        limit (int | None | Unset): Only the first `limit` samples.
        num_gpus (int | Unset):  Default: 0.
        run_mode (str | Unset): local, ray (PLATFORM_RAY_ADDRESS), or ssh:<host> for a host an admin added (GET /hosts).
            Default: 'local'.
        start (bool | Unset):  Default: True.
    """

    dataset: str
    job: str
    metrics: list[MetricRequest]
    batch_size: int | Unset = 8
    bootstrap_resamples: int | Unset = 1000
    confidence: float | Unset = 0.95
    every: int | Unset = 1
    generation: GenerationSettings | Unset = UNSET
    include_final: bool | Unset = True
    limit: int | None | Unset = UNSET
    num_gpus: int | Unset = 0
    run_mode: str | Unset = "local"
    start: bool | Unset = True

    def to_dict(self) -> dict[str, Any]:
        dataset = self.dataset

        job = self.job

        metrics = []
        for metrics_item_data in self.metrics:
            metrics_item = metrics_item_data.to_dict()
            metrics.append(metrics_item)

        batch_size = self.batch_size

        bootstrap_resamples = self.bootstrap_resamples

        confidence = self.confidence

        every = self.every

        generation: dict[str, Any] | Unset = UNSET
        if not isinstance(self.generation, Unset):
            generation = self.generation.to_dict()

        include_final = self.include_final

        limit: int | None | Unset
        if isinstance(self.limit, Unset):
            limit = UNSET
        else:
            limit = self.limit

        num_gpus = self.num_gpus

        run_mode = self.run_mode

        start = self.start

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "dataset": dataset,
                "job": job,
                "metrics": metrics,
            }
        )
        if batch_size is not UNSET:
            field_dict["batch_size"] = batch_size
        if bootstrap_resamples is not UNSET:
            field_dict["bootstrap_resamples"] = bootstrap_resamples
        if confidence is not UNSET:
            field_dict["confidence"] = confidence
        if every is not UNSET:
            field_dict["every"] = every
        if generation is not UNSET:
            field_dict["generation"] = generation
        if include_final is not UNSET:
            field_dict["include_final"] = include_final
        if limit is not UNSET:
            field_dict["limit"] = limit
        if num_gpus is not UNSET:
            field_dict["num_gpus"] = num_gpus
        if run_mode is not UNSET:
            field_dict["run_mode"] = run_mode
        if start is not UNSET:
            field_dict["start"] = start

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.generation_settings import GenerationSettings  # noqa: PLC0415
        from ..models.metric_request import MetricRequest  # noqa: PLC0415

        d = dict(src_dict)
        dataset = d.pop("dataset")

        job = d.pop("job")

        metrics = []
        _metrics = d.pop("metrics")
        for metrics_item_data in _metrics:
            metrics_item = MetricRequest.from_dict(metrics_item_data)

            metrics.append(metrics_item)

        batch_size = d.pop("batch_size", UNSET)

        bootstrap_resamples = d.pop("bootstrap_resamples", UNSET)

        confidence = d.pop("confidence", UNSET)

        every = d.pop("every", UNSET)

        _generation = d.pop("generation", UNSET)
        generation: GenerationSettings | Unset
        if isinstance(_generation, Unset):
            generation = UNSET
        else:
            generation = GenerationSettings.from_dict(_generation)

        include_final = d.pop("include_final", UNSET)

        def _parse_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        limit = _parse_limit(d.pop("limit", UNSET))

        num_gpus = d.pop("num_gpus", UNSET)

        run_mode = d.pop("run_mode", UNSET)

        start = d.pop("start", UNSET)

        sweep_request = cls(
            dataset=dataset,
            job=job,
            metrics=metrics,
            batch_size=batch_size,
            bootstrap_resamples=bootstrap_resamples,
            confidence=confidence,
            every=every,
            generation=generation,
            include_final=include_final,
            limit=limit,
            num_gpus=num_gpus,
            run_mode=run_mode,
            start=start,
        )

        return sweep_request
