"""The compute configurator's service: estimates and recommendations, with every figure explained."""

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from training_platform.compute.gpus import GiB, Gpu, catalog, get_gpu
from training_platform.compute.memory import CATEGORIES, Estimate, estimate
from training_platform.compute.model import PRESETS, ModelSpec, resolve_model
from training_platform.compute.recommend import Recommendation, job_engine_settings, job_params, recommend
from training_platform.compute.schemas import (
    DurationRead,
    EstimateBody,
    EstimateRead,
    GpuRead,
    ModelPresetRead,
    RecommendationRead,
    RecommendBody,
    SpeedRead,
    TermRead,
)
from training_platform.compute.speed import Speed, speed
from training_platform.contract.params import Algorithm, parse_params
from training_platform.contract.run import RunSpec
from training_platform.engines.registry import engines

_EXPLANATIONS = {
    "weights": "model parameters held on each GPU",
    "gradients": "one gradient per trainable parameter (sharded from ZeRO-2)",
    "optimizer": "optimizer states per trainable parameter (sharded from ZeRO-1)",
    "activations": "what the forward pass keeps for backward, plus workspace at the step's peak",
    "rl_extra": "reference / critic / reward models and the rollout engine's reservation",
    "overhead": "runtime memory outside tensors, and allocator fragmentation",
}
# Where the rendered engine configurations put the job's files: the configurator has no job yet.
_PLACEHOLDER_DIR = "<job directory>"
_PLACEHOLDER_DATA = "<training data>"


class ComputeService:
    def __init__(self, path_roots: Sequence[Path] = ()):
        self.path_roots = path_roots  # where a model's config.json may be read from; presets need none

    def estimate(self, body: EstimateBody) -> EstimateRead:
        model, gpu, reward = _resolve(body, self.path_roots)
        model.lora_params(body.lora_rank, body.lora_targets)  # names unknown LoRA targets early
        result = estimate(model, gpu, body, reward)  # the body is the EstimateRequest
        pace = speed(model, gpu, body, body.micro_batch * body.num_gpus)
        return _estimate_read(result, pace)

    def recommend(self, body: RecommendBody) -> RecommendationRead:
        model, gpu, reward = _resolve(body, self.path_roots)
        result = recommend(model, gpu, body, reward)  # the body is the RecommendRequest
        answer = RecommendationRead(
            fits=result.fits,
            algorithm=body.algorithm.value,
            global_batch=result.global_batch,
            reasons=result.reasons,
            suggestions=result.suggestions,
        )
        if not result.fits:
            return answer
        params = job_params(result)
        settings = job_engine_settings(result)
        return answer.model_copy(
            update=dict(
                engine=result.engine.name,
                micro_batch=result.request.micro_batch,
                gradient_accumulation=result.gradient_accumulation,
                duration=_duration_read(result),
                configuration=result.request,
                estimate=_estimate_read(result.estimate, result.speed),
                params=params,
                engine_settings=settings,
                **_engine_configurations(body, gpu, result, params, settings),
            )
        )

    def models(self) -> list[ModelPresetRead]:
        return [_model_read(model) for model in PRESETS.values()]

    def gpus(self) -> list[GpuRead]:
        return [_gpu_read(gpu) for gpu in catalog()]


def _resolve(body: EstimateBody | RecommendBody, roots: Sequence[Path]) -> tuple[ModelSpec, Gpu, ModelSpec | None]:
    reward = resolve_model(body.reward_model, roots, field="reward_model") if body.reward_model else None
    return resolve_model(body.model, roots), get_gpu(body.gpu), reward


def _engine_configurations(
    body: RecommendBody, gpu: Gpu, result: Recommendation, params: dict[str, Any], settings: dict[str, Any]
) -> dict[str, Any]:
    """Each engine that can run the recommended parameters, in its own terms (verl overrides, TRL arguments); the
    recommended engine's with the settings chosen for it."""
    if body.algorithm == Algorithm.PPO:
        params = {**params, "reward_model_path": body.reward_model or body.model}
    spec = RunSpec(
        job_id="job",
        model_path=body.model,
        dataset_paths=[_PLACEHOLDER_DATA],
        params=parse_params(body.algorithm, params),
        output_dir=_PLACEHOLDER_DIR,
    )
    configurations: dict[str, Any] = {}
    for engine in engines():
        if engine.supports(body.algorithm, body.num_gpus, gpu.kind) and not engine.refusals(spec.params):
            own = spec.model_copy(update={"engine_settings": settings}) if engine.name == result.engine.name else spec
            configurations.update(engine.render(own, gpu.kind))
    return configurations


def _model_read(model: ModelSpec) -> ModelPresetRead:
    return ModelPresetRead(**model.model_dump(), num_parameters=model.num_parameters)


def _gpu_read(gpu: Gpu) -> GpuRead:
    return GpuRead(
        name=gpu.name,
        kind=gpu.kind,
        memory_bytes=gpu.memory_bytes,
        memory_gib=round(gpu.memory_gib, 2),
        bandwidth_gbs=gpu.bandwidth_gbs,
        bf16_tflops=gpu.bf16_tflops,
        host_memory_bytes=gpu.host_memory_bytes,
        note=gpu.note,
    )


def _speed_fields(pace: Speed) -> dict[str, Any]:
    return dict(
        tokens_per_second=pace.tokens_per_second,
        step_seconds=pace.step_seconds,
        step_seconds_low=pace.low_seconds,
        step_seconds_high=pace.high_seconds,
        samples_per_step=pace.samples_per_step,
        basis=pace.basis,
    )


def _duration_read(result: Recommendation) -> DurationRead | None:
    if result.speed is None:
        return None
    duration = DurationRead(**_speed_fields(result.speed))
    if result.steps is None:
        return duration
    return duration.model_copy(
        update=dict(
            steps=result.steps,
            total_seconds=result.steps * result.speed.step_seconds,
            total_seconds_low=result.steps * result.speed.low_seconds,
            total_seconds_high=result.steps * result.speed.high_seconds,
        )
    )


def _estimate_read(result: Estimate, pace: Speed | None) -> EstimateRead:
    per_gpu = result.category_bytes()
    return EstimateRead(
        model=_model_read(result.model),
        gpu=_gpu_read(result.gpu),
        per_gpu_bytes=per_gpu,
        per_gpu_gib={key: round(value / GiB, 3) for key, value in per_gpu.items()},
        capacity_bytes=result.gpu.memory_bytes,
        fits=result.fits,
        peak_phase=result.peak_phase,
        trainable_parameters=result.trainable_parameters,
        cpu_offload_bytes=result.cpu_offload_bytes,
        terms=[TermRead.model_validate(term, from_attributes=True) for term in result.terms],
        explanations={category: _EXPLANATIONS[category] for category in CATEGORIES},
        notes=result.notes,
        problems=result.problems,
        speed=SpeedRead(**_speed_fields(pace)) if pace is not None else None,
    )
