"""What the API and the CLI ask of the configurator, and the shape of its answers."""

from typing import Any

from pydantic import ConfigDict, Field

from training_platform.compute.gpus import GiB, Gpu, catalog, get_gpu
from training_platform.compute.memory import CATEGORIES, Estimate, EstimateRequest, estimate
from training_platform.compute.model import PRESETS, ModelSpec, resolve_model
from training_platform.compute.recommend import (
    RecommendRequest,
    job_params,
    recommend,
    trl_arguments,
    verl_overrides,
)

_EXPLANATIONS = {
    "weights": "model parameters held on each GPU",
    "gradients": "one gradient per trainable parameter (sharded from ZeRO-2)",
    "optimizer": "optimizer states per trainable parameter (sharded from ZeRO-1)",
    "activations": "what the forward pass keeps for backward, plus workspace at the step's peak",
    "rl_extra": "reference / critic / reward models and the rollout engine's reservation",
    "overhead": "runtime memory outside tensors, and allocator fragmentation",
}


class EstimateBody(EstimateRequest):
    model_config = ConfigDict(extra="forbid")

    model: str = Field(description="Preset name (GET /compute/models) or a local model directory / config.json.")
    gpu: str = Field(default="H100-80G", description="GPU name (GET /compute/gpus) or 'cpu'.")
    reward_model: str | None = Field(default=None, description="PPO: the reward model (preset or path).")


class RecommendBody(RecommendRequest):
    model_config = ConfigDict(extra="forbid")

    model: str
    gpu: str = "H100-80G"
    reward_model: str | None = None


def _resolve(body) -> tuple[ModelSpec, Gpu, ModelSpec | None]:
    reward = resolve_model(body.reward_model, field="reward_model") if body.reward_model else None
    return resolve_model(body.model), get_gpu(body.gpu), reward


def describe_model(model: ModelSpec) -> dict[str, Any]:
    return {**model.model_dump(), "num_parameters": model.num_parameters}


def describe_gpu(gpu: Gpu) -> dict[str, Any]:
    return {
        "name": gpu.name,
        "kind": gpu.kind,
        "memory_bytes": gpu.memory_bytes,
        "memory_gib": round(gpu.memory_gib, 2),
        "bandwidth_gbs": gpu.bandwidth_gbs,
        "bf16_tflops": gpu.bf16_tflops,
        "host_memory_bytes": gpu.host_memory_bytes,
        "note": gpu.note,
    }


def describe_estimate(result: Estimate) -> dict[str, Any]:
    per_gpu = result.category_bytes()
    return {
        "model": describe_model(result.model),
        "gpu": describe_gpu(result.gpu),
        "per_gpu_bytes": per_gpu,
        "per_gpu_gib": {key: round(value / GiB, 3) for key, value in per_gpu.items()},
        "capacity_bytes": result.gpu.memory_bytes,
        "fits": result.fits,
        "peak_phase": result.peak_phase,
        "trainable_parameters": result.trainable_parameters,
        "cpu_offload_bytes": result.cpu_offload_bytes,
        "terms": [
            {"key": t.key, "category": t.category, "bytes": t.bytes, "formula": t.formula, "explanation": t.explanation}
            for t in result.terms
        ],
        "explanations": {category: _EXPLANATIONS[category] for category in CATEGORIES},
        "notes": result.notes,
        "problems": result.problems,
    }


def run_estimate(body: EstimateBody) -> dict[str, Any]:
    model, gpu, reward = _resolve(body)
    model.lora_params(body.lora_rank, body.lora_targets)  # names unknown LoRA targets early
    return describe_estimate(estimate(model, gpu, body, reward))  # the body is the EstimateRequest


def run_recommend(body: RecommendBody) -> dict[str, Any]:
    model, gpu, reward = _resolve(body)
    result = recommend(model, gpu, body, reward)  # the body is the RecommendRequest
    answer: dict[str, Any] = {
        "fits": result.fits,
        "algorithm": body.algorithm.value,
        "global_batch": result.global_batch,
        "reasons": result.reasons,
        "suggestions": result.suggestions,
    }
    if result.fits:
        answer.update(
            micro_batch=result.request.micro_batch,
            gradient_accumulation=result.gradient_accumulation,
            step_seconds=result.step_seconds,
            configuration=result.request.model_dump(mode="json"),
            estimate=describe_estimate(result.estimate),
            params=job_params(result),
            engine="verl" if result.request.num_gpus > 1 else "trl",
            verl_overrides=verl_overrides(result),
            trl_arguments=trl_arguments(result),
        )
    return answer


def list_models() -> list[dict[str, Any]]:
    return [describe_model(model) for model in PRESETS.values()]


def list_gpus() -> list[dict[str, Any]]:
    return [describe_gpu(gpu) for gpu in catalog()]
