"""What the configurator's API accepts and returns."""

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from training_platform.compute.memory import EstimateRequest
from training_platform.compute.recommend import RecommendRequest


class _Hardware(BaseModel):
    """What is sized, on what: the part of a request the configurator resolves before pricing it."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(
        max_length=4096,
        description="Preset name (GET /compute/models), or a model directory / config.json under the data roots.",
    )
    gpu: str = Field(default="H100-80G", max_length=200, description="GPU name (GET /compute/gpus) or 'cpu'.")
    reward_model: str | None = Field(
        default=None, max_length=4096, description="PPO: the reward model (preset or path)."
    )


class EstimateBody(EstimateRequest, _Hardware):
    pass


class RecommendBody(RecommendRequest, _Hardware):
    pass


class ModelPresetRead(BaseModel):
    name: str
    vocab_size: int
    hidden_size: int
    intermediate_size: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    tie_embeddings: bool
    attention_bias: bool
    num_parameters: int


class GpuRead(BaseModel):
    name: str
    kind: str
    memory_bytes: int
    memory_gib: float
    bandwidth_gbs: float
    bf16_tflops: float
    host_memory_bytes: int
    note: str


class TermRead(BaseModel):
    key: str
    category: str
    bytes: int
    formula: str
    explanation: str


class SpeedRead(BaseModel):
    """How fast one optimizer step runs (speed.py), with the range that the calibration supports."""

    tokens_per_second: float = Field(description="Trained tokens per second over every GPU of the job.")
    step_seconds: float
    step_seconds_low: float
    step_seconds_high: float
    samples_per_step: int
    tokens_per_step: float = Field(description="Trained (non-padding) tokens of one step over every GPU.")
    padding_ratio: float = Field(description="Share of padding in the tokens a step computes: 0 when packed.")
    packed: bool = Field(description="Whether the step's micro-batches are packed sequences (the job's packing).")
    basis: str = Field(description="How it was computed, what it assumed of the samples' lengths, and what it was "
                       "calibrated on.")  # fmt: skip


class DurationRead(SpeedRead):
    """A recommendation's expected duration: per step and, when the request gave the samples, in total."""

    steps: int | None = None
    total_seconds: float | None = None
    total_seconds_low: float | None = None
    total_seconds_high: float | None = None


class EstimateRead(BaseModel):
    model: ModelPresetRead
    gpu: GpuRead
    per_gpu_bytes: dict[str, int]
    per_gpu_gib: dict[str, float]
    capacity_bytes: int
    fits: bool
    peak_phase: str
    trainable_parameters: int
    cpu_offload_bytes: int
    terms: list[TermRead]
    explanations: dict[str, str]
    notes: list[str]
    problems: list[str]
    speed: SpeedRead | None = Field(
        default=None, description="One optimizer step of micro_batch × num_gpus samples; none on the CPU."
    )


class EngineConfigurationRead(BaseModel):
    """One engine's own configuration of the recommended job (what its job preview shows), or why it has none."""

    engine: str
    recommended: bool
    configuration: dict[str, Any] | None = Field(
        default=None,
        description="verl: verl_overrides; TRL: trl_arguments, lora_arguments and, on several GPUs, accelerate_config.",
    )
    not_shown: str | None = Field(default=None, description="Why the engine cannot run these settings.")


class RecommendationRead(BaseModel):
    """When it fits: the configuration, its estimate, the job's parameters and the engine that runs them; each
    engine shows the job in its own terms (verl's overrides, TRL's arguments), or why it cannot run it. Texts are
    in the request's language (Accept-Language)."""

    fits: bool
    algorithm: str
    global_batch: int
    reasons: list[str]
    suggestions: list[str]
    engine: str | None = None
    micro_batch: int | None = None
    gradient_accumulation: int | None = None
    duration: DurationRead | None = Field(default=None, description="Expected time per step and in total.")
    configuration: EstimateRequest | None = None
    estimate: EstimateRead | None = None
    params: dict[str, Any] | None = None
    engine_settings: dict[str, Any] | None = Field(
        default=None,
        description="What it chose that the params do not hold, as the engine's own settings (a job's "
        "engine_settings): post both, with the engine, to create the job it sized.",
    )
    engines: list[EngineConfigurationRead] = Field(
        default_factory=list, description="Every engine's configuration of these params, from the same params."
    )
    not_carried: list[str] = Field(
        default_factory=list,
        description="What the recommendation assumed that neither the params nor the engine settings hold, and why.",
    )
    verl_overrides: list[str] | None = Field(default=None, description="verl's configuration in `engines`.")
    trl_arguments: dict[str, Any] | None = Field(default=None, description="TRL's trainer arguments in `engines`.")
