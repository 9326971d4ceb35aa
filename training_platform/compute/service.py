"""The compute configurator's service: estimates and recommendations, with every figure explained."""

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from training_platform.common.text import ENGLISH, Language, Text
from training_platform.compute.gpus import GiB, Gpu, catalog, get_gpu
from training_platform.compute.memory import CATEGORIES, Estimate, estimate, phase_text
from training_platform.compute.model import PRESETS, ModelSpec, resolve_model
from training_platform.compute.recommend import (
    Recommendation,
    error_text,
    job_engine_settings,
    job_params,
    recommend,
)
from training_platform.compute.schemas import (
    DurationRead,
    EngineConfigurationRead,
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

# Where the rendered engine configurations put the job's files: the configurator has no job yet.
_PLACEHOLDER_DIR = "<job directory>"
_PLACEHOLDER_DATA = "<training data>"


class ComputeService:
    def __init__(self, path_roots: Sequence[Path] = ()):
        self.path_roots = path_roots  # where a model's config.json may be read from; presets need none

    def estimate(self, body: EstimateBody, language: Language = ENGLISH) -> EstimateRead:
        model, gpu, reward = _resolve(body, self.path_roots)
        model.lora_params(body.lora_rank, body.lora_targets)  # names unknown LoRA targets early
        result = estimate(model, gpu, body, reward)  # the body is the EstimateRequest
        pace = speed(model, gpu, body, body.micro_batch * body.num_gpus)
        return _estimate_read(result, pace, language)

    def recommend(self, body: RecommendBody, language: Language = ENGLISH) -> RecommendationRead:
        model, gpu, reward = _resolve(body, self.path_roots)
        result = recommend(model, gpu, body, reward)  # the body is the RecommendRequest
        answer = RecommendationRead(
            fits=result.fits,
            algorithm=body.algorithm.value,
            global_batch=result.global_batch,
            reasons=_rendered(result.reasons, language),
            suggestions=_rendered(result.suggestions, language),
        )
        if not result.fits:
            return answer
        params = job_params(result)
        settings = job_engine_settings(result)
        configurations = _engine_configurations(body, gpu, result, params, settings, language)
        shown = {key: value for item in configurations for key, value in (item.configuration or {}).items()}
        return answer.model_copy(
            update=dict(
                engine=result.engine.name,
                micro_batch=result.request.micro_batch,
                gradient_accumulation=result.gradient_accumulation,
                duration=_duration_read(result),
                configuration=result.request,
                estimate=_estimate_read(result.estimate, result.speed, language),
                params=params,
                engine_settings=settings,
                engines=configurations,
                not_carried=_rendered(_not_carried(result, gpu), language),
                verl_overrides=shown.get("verl_overrides"),
                trl_arguments=shown.get("trl_arguments"),
            )
        )

    def models(self) -> list[ModelPresetRead]:
        return [_model_read(model) for model in PRESETS.values()]

    def gpus(self) -> list[GpuRead]:
        return [_gpu_read(gpu) for gpu in catalog()]


def _resolve(body: EstimateBody | RecommendBody, roots: Sequence[Path]) -> tuple[ModelSpec, Gpu, ModelSpec | None]:
    reward = resolve_model(body.reward_model, roots, field="reward_model") if body.reward_model else None
    return resolve_model(body.model, roots), get_gpu(body.gpu), reward


def _rendered(texts: list[Text], language: Language) -> list[str]:
    return [text.render(language) for text in texts]


def _not_carried(result: Recommendation, gpu: Gpu) -> list[Text]:
    """What the recommendation assumed that a job's parameters and engine settings do not hold."""
    request = result.request
    return [
        Text.of("compute.not_carried.hardware", gpus=request.num_gpus, gpu=gpu.name),
        Text.of("compute.not_carried.attention", attention=request.attention),
    ]


def _engine_configurations(
    body: RecommendBody,
    gpu: Gpu,
    result: Recommendation,
    params: dict[str, Any],
    settings: dict[str, Any],
    language: Language,
) -> list[EngineConfigurationRead]:
    """Every engine's own terms for the recommended parameters, as its job preview shows them (verl overrides; TRL
    arguments, LoRA and accelerate config), the recommended engine's with the settings chosen for it; or why the
    engine cannot run them."""
    if body.algorithm == Algorithm.PPO:
        params = {**params, "reward_model_path": body.reward_model or body.model}
    spec = RunSpec(
        job_id="job",
        model_path=body.model,
        dataset_paths=[_PLACEHOLDER_DATA],
        params=parse_params(body.algorithm, params),
        output_dir=_PLACEHOLDER_DIR,
    )
    configurations = []
    for engine in engines():
        recommended = engine.name == result.engine.name
        unsupported = engine.unsupported(body.algorithm, body.num_gpus, gpu.kind)
        refusals = [unsupported] if unsupported else engine.refusals(spec.params)
        if refusals:
            reason = Text.of("compute.not_shown", engine=engine.name, reason=error_text(refusals[0]).as_dict())
            configurations.append(
                EngineConfigurationRead(engine=engine.name, recommended=recommended, not_shown=reason.render(language))
            )
            continue
        own = spec.model_copy(update={"engine_settings": settings}) if recommended else spec
        # Parts the job has none of (TRL's lora_arguments without LoRA) are left out rather than shown empty.
        preview = engine.preview(own, gpu.kind).configuration
        configuration = {part: value for part, value in preview.items() if value is not None}
        configurations.append(
            EngineConfigurationRead(engine=engine.name, recommended=recommended, configuration=configuration)
        )
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
        tokens_per_step=pace.tokens_per_step,
        padding_ratio=pace.padding_ratio,
        packed=pace.packed,
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


def _estimate_read(result: Estimate, pace: Speed | None, language: Language) -> EstimateRead:
    per_gpu = result.category_bytes()
    return EstimateRead(
        model=_model_read(result.model),
        gpu=_gpu_read(result.gpu),
        per_gpu_bytes=per_gpu,
        per_gpu_gib={key: round(value / GiB, 3) for key, value in per_gpu.items()},
        capacity_bytes=result.gpu.memory_bytes,
        fits=result.fits,
        peak_phase=phase_text(result.peak_phase).render(language),
        trainable_parameters=result.trainable_parameters,
        cpu_offload_bytes=result.cpu_offload_bytes,
        terms=[
            TermRead(
                key=term.key,
                category=term.category,
                bytes=term.bytes,
                formula=term.formula,
                explanation=term.explanation.render(language),
            )
            for term in result.terms
        ],
        explanations={category: Text.of(f"compute.category.{category}").render(language) for category in CATEGORIES},
        notes=_rendered(result.notes, language),
        problems=_rendered(result.problems, language),
        speed=SpeedRead(**_speed_fields(pace)) if pace is not None else None,
    )
