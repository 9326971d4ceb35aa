from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.api_target import ApiTarget
    from ..models.generation_settings import GenerationSettings
    from ..models.metric_request import MetricRequest
    from ..models.model_target_request import ModelTargetRequest


T = TypeVar("T", bound="EvalRequest")


@_attrs_define
class EvalRequest:
    """
    Attributes:
        dataset (str): A registered eval dataset, by name or id.
        metrics (list[MetricRequest]):
        target (ApiTarget | ModelTargetRequest):
        bootstrap_resamples (int | Unset):  Default: 1000.
        confidence (float | Unset):  Default: 0.95.
        generation (GenerationSettings | Unset):
        limit (int | None | Unset): Only the first `limit` samples.
        name (None | str | Unset): The run's job name; default: made from the target's.
        num_gpus (int | Unset):  Default: 0.
        run_mode (str | Unset): local, ray (PLATFORM_RAY_ADDRESS), or ssh:<host> for a host an admin added (GET /hosts).
            Default: 'local'.
        start (bool | Unset):  Default: True.
    """

    dataset: str
    metrics: list[MetricRequest]
    target: ApiTarget | ModelTargetRequest
    bootstrap_resamples: int | Unset = 1000
    confidence: float | Unset = 0.95
    generation: GenerationSettings | Unset = UNSET
    limit: int | None | Unset = UNSET
    name: None | str | Unset = UNSET
    num_gpus: int | Unset = 0
    run_mode: str | Unset = "local"
    start: bool | Unset = True

    def to_dict(self) -> dict[str, Any]:
        from ..models.model_target_request import ModelTargetRequest  # noqa: PLC0415

        dataset = self.dataset

        metrics = []
        for metrics_item_data in self.metrics:
            metrics_item = metrics_item_data.to_dict()
            metrics.append(metrics_item)

        target: dict[str, Any]
        if isinstance(self.target, ModelTargetRequest):
            target = self.target.to_dict()
        else:
            target = self.target.to_dict()

        bootstrap_resamples = self.bootstrap_resamples

        confidence = self.confidence

        generation: dict[str, Any] | Unset = UNSET
        if not isinstance(self.generation, Unset):
            generation = self.generation.to_dict()

        limit: int | None | Unset
        if isinstance(self.limit, Unset):
            limit = UNSET
        else:
            limit = self.limit

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        num_gpus = self.num_gpus

        run_mode = self.run_mode

        start = self.start

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "dataset": dataset,
                "metrics": metrics,
                "target": target,
            }
        )
        if bootstrap_resamples is not UNSET:
            field_dict["bootstrap_resamples"] = bootstrap_resamples
        if confidence is not UNSET:
            field_dict["confidence"] = confidence
        if generation is not UNSET:
            field_dict["generation"] = generation
        if limit is not UNSET:
            field_dict["limit"] = limit
        if name is not UNSET:
            field_dict["name"] = name
        if num_gpus is not UNSET:
            field_dict["num_gpus"] = num_gpus
        if run_mode is not UNSET:
            field_dict["run_mode"] = run_mode
        if start is not UNSET:
            field_dict["start"] = start

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.api_target import ApiTarget  # noqa: PLC0415
        from ..models.generation_settings import GenerationSettings  # noqa: PLC0415
        from ..models.metric_request import MetricRequest  # noqa: PLC0415
        from ..models.model_target_request import ModelTargetRequest  # noqa: PLC0415

        d = dict(src_dict)
        dataset = d.pop("dataset")

        metrics = []
        _metrics = d.pop("metrics")
        for metrics_item_data in _metrics:
            metrics_item = MetricRequest.from_dict(metrics_item_data)

            metrics.append(metrics_item)

        def _parse_target(data: object) -> ApiTarget | ModelTargetRequest:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                target_type_0 = ModelTargetRequest.from_dict(data)

                return target_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            target_type_1 = ApiTarget.from_dict(data)

            return target_type_1

        target = _parse_target(d.pop("target"))

        bootstrap_resamples = d.pop("bootstrap_resamples", UNSET)

        confidence = d.pop("confidence", UNSET)

        _generation = d.pop("generation", UNSET)
        generation: GenerationSettings | Unset
        if isinstance(_generation, Unset):
            generation = UNSET
        else:
            generation = GenerationSettings.from_dict(_generation)

        def _parse_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        limit = _parse_limit(d.pop("limit", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        num_gpus = d.pop("num_gpus", UNSET)

        run_mode = d.pop("run_mode", UNSET)

        start = d.pop("start", UNSET)

        eval_request = cls(
            dataset=dataset,
            metrics=metrics,
            target=target,
            bootstrap_resamples=bootstrap_resamples,
            confidence=confidence,
            generation=generation,
            limit=limit,
            name=name,
            num_gpus=num_gpus,
            run_mode=run_mode,
            start=start,
        )

        return eval_request
