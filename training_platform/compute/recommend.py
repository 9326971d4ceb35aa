"""The recommender: the fastest configuration that fits with a safety margin, ready to use.

It asks the engines which of them can run the algorithm on these devices, and searches, within what each
engine does (its ZeRO/FSDP stages and CPU offloading), micro batch, sharding, offload, gradient checkpointing
and (only when no full fine-tune fits, because it changes what is trained) LoRA; every candidate is priced
with the memory model for the engine that would run it, and ranked by its estimated step time (speed.py).
The output is the engine and the job's parameters (post them unchanged as a job's `params` with that engine);
when nothing fits, it says what would: more (or fewer) GPUs, LoRA, a shorter sequence or a larger GPU.
"""

import math
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from training_platform.common.text import Text
from training_platform.compute.gpus import CATALOG, GiB, Gpu
from training_platform.compute.memory import (
    ALL_LINEARS,
    Attention,
    Estimate,
    EstimateRequest,
    HostMemoryGiB,
    Precision,
    estimate,
    host_ram,
    phase_text,
)
from training_platform.compute.model import ModelSpec
from training_platform.compute.speed import Speed, speed
from training_platform.contract.params import (
    MAX_BATCH,
    MAX_GPUS,
    MAX_ROLLOUTS,
    MAX_SEQUENCE_LENGTH,
    RL_ALGORITHMS,
    Algorithm,
)
from training_platform.engines.base import Engine
from training_platform.engines.registry import capable_engines, engines
from training_platform.errors import FieldError, InvalidInputError

# Usual global batches: SFT 4-32, DPO 32-128, GRPO/PPO 128-512 (prompts). The middle of each range that a
# small team's hardware still turns over in reasonable time.
DEFAULT_GLOBAL_BATCH = {
    Algorithm.SFT: 32,
    Algorithm.DPO: 64,
    Algorithm.GRPO: 128,
    Algorithm.GSPO: 128,
    Algorithm.PPO: 128,
}
MICRO_BATCHES = (1, 2, 4, 8, 16, 32, 64)
LORA_RANK = 16


class RecommendRequest(BaseModel):
    """Bounded as a job's parameters are (contract/params.py): the search tries shorter sequences one power of two
    at a time, so an unbounded length would cost minutes."""

    model_config = ConfigDict(extra="forbid")

    seq_len: int = Field(gt=0, le=MAX_SEQUENCE_LENGTH)
    num_gpus: int = Field(default=1, gt=0, le=MAX_GPUS)
    algorithm: Algorithm = Algorithm.SFT
    global_batch: int | None = Field(default=None, gt=0, le=MAX_BATCH, description="Samples (prompts for RL) per step.")
    precision: Precision = "bf16-amp"
    attention: Attention | None = Field(default=None, description="Default: flash on CUDA, sdpa elsewhere.")
    allow_lora: bool = True
    lora_rank: int = Field(default=LORA_RANK, gt=0, le=1024)
    rollout_n: int = Field(default=8, gt=0, le=MAX_ROLLOUTS)
    safety_margin: float = Field(default=0.1, ge=0, lt=1, description="Fraction of memory kept free.")
    host_memory_gib: HostMemoryGiB = None
    samples: int | None = Field(
        default=None,
        gt=0,
        le=2**40,
        description="Samples the job trains on (rows × epochs; prompts for RL): the expected duration covers them.",
    )


def _samples_per_step(algorithm: Algorithm, global_batch: int, rollout_n: int) -> int:
    """Sequences trained per step: the global batch, times the responses per prompt for RL."""
    return global_batch * (rollout_n if algorithm in RL_ALGORITHMS else 1)


@dataclass
class Recommendation:
    fits: bool
    global_batch: int
    engine: Engine | None
    request: EstimateRequest | None
    estimate: Estimate | None
    speed: Speed | None
    reasons: list[Text] = field(default_factory=list)
    suggestions: list[Text] = field(default_factory=list)
    samples: int | None = None  # what the job trains on, when the request said

    @property
    def steps(self) -> int | None:
        """Optimizer steps over the request's samples."""
        if self.samples is None:
            return None
        return math.ceil(self.samples / self.global_batch)

    @property
    def gradient_accumulation(self) -> int | None:
        if self.request is None:
            return None
        samples = _samples_per_step(self.request.algorithm, self.global_batch, self.request.rollout_n)
        return samples // (self.request.micro_batch * self.request.num_gpus)


def _budget(gpu: Gpu, margin: float) -> float:
    return gpu.memory_bytes * (1 - margin)


def _candidates(request: RecommendRequest, gpu: Gpu, lora: bool, samples_per_step: int, engine: Engine):
    capabilities = engine.capabilities
    # What the engine runs for the requested precision (engines/base.py StepProfile.precision_as).
    precision = dict(engine.capabilities.step.precision_as).get(request.precision, request.precision)
    attention = request.attention or ("flash" if gpu.kind == "cuda" else "sdpa")
    rl = request.algorithm in RL_ALGORITHMS
    # (optimizer states, parameters) in CPU memory: what the engine can do; parameters only with the optimizer.
    offloads = [(False, False), (True, False), (True, True)] if capabilities.cpu_offload else [(False, False)]
    for stage in sorted(capabilities.zero_stages):
        for offload_optimizer, offload_params in offloads:
            if offload_params and stage != 3:
                continue  # parameters are offloadable only when sharded (ZeRO-3 / FSDP)
            for checkpointing in (False, True):
                for micro in MICRO_BATCHES:
                    if samples_per_step % (micro * request.num_gpus):
                        continue
                    yield EstimateRequest(
                        engine=engine.name,
                        seq_len=request.seq_len,
                        micro_batch=micro,
                        num_gpus=request.num_gpus,
                        algorithm=request.algorithm,
                        precision=precision,
                        zero_stage=stage,
                        offload_optimizer=offload_optimizer,
                        offload_params=offload_params,
                        gradient_checkpointing=checkpointing,
                        attention=attention,
                        lora_rank=request.lora_rank if lora else 0,
                        lora_targets=list(ALL_LINEARS),
                        rollout_n=request.rollout_n,
                        prompts_per_gpu=max(1, micro // request.rollout_n) if rl else None,
                        gpu_memory_utilization=0.1,
                        host_memory_gib=request.host_memory_gib,
                    )


def _with_rollout_share(
    model, gpu, candidate: EstimateRequest, result: Estimate, budget: float, reward
) -> tuple[EstimateRequest, Estimate]:
    """For RL, the largest vLLM share (in steps of 0.05, up to 0.9) that still fits; `result` is the
    candidate's own estimate."""
    if candidate.algorithm not in RL_ALGORITHMS or gpu.kind != "cuda":
        return candidate, result
    for share in [x / 100 for x in range(90, 5, -5)]:
        trial = candidate.model_copy(update={"gpu_memory_utilization": share})
        trial_result = estimate(model, gpu, trial, reward)
        if trial_result.total_bytes <= budget and not trial_result.problems:
            return trial, trial_result
    return candidate, result


def search(model: ModelSpec, gpu: Gpu, request: RecommendRequest, lora: bool, engine: Engine, reward=None):
    """(rank, speed, request, estimate) of every candidate `engine` can run that fits, fastest first."""
    global_batch = request.global_batch or DEFAULT_GLOBAL_BATCH[request.algorithm]
    samples = _samples_per_step(request.algorithm, global_batch, request.rollout_n)
    budget = _budget(gpu, request.safety_margin)
    fitting = []
    for candidate in _candidates(request, gpu, lora, samples, engine):
        result = estimate(model, gpu, candidate, reward)
        if result.total_bytes > budget or (result.problems and candidate.algorithm not in RL_ALGORITHMS):
            continue
        candidate, result = _with_rollout_share(model, gpu, candidate, result, budget, reward)
        if result.total_bytes > budget or result.problems:
            continue
        pace = speed(model, gpu, candidate, samples)
        # Without a speed figure (CPU), prefer fewer gradient-accumulation passes and no recomputation.
        rank = (
            pace.step_seconds
            if pace is not None
            else (samples / candidate.micro_batch) * (1.3 if candidate.gradient_checkpointing else 1)
        )
        fitting.append((rank, pace, candidate, result))
    fitting.sort(key=lambda item: item[0])
    return fitting


@dataclass
class _Best:
    engine: Engine
    lora: bool
    speed: Speed | None
    request: EstimateRequest
    estimate: Estimate
    options: int  # configurations that fit, over the engines searched


def _best(model: ModelSpec, gpu: Gpu, request: RecommendRequest, reward) -> _Best | None:
    """The fastest fitting configuration of the engines that can run it on this machine (full fine-tuning before
    LoRA; on a tie, the engine first in capable_engines' order); only if none fits, of the other capable engines."""
    capable = capable_engines(request.algorithm, request.num_gpus, gpu.kind)
    runnable = [engine for engine in capable if engine.runnable_here(request.algorithm)]
    for group in (runnable, [engine for engine in capable if engine not in runnable]):
        for lora in (False, True) if request.allow_lora else (False,):
            fitting = [
                (rank, order, pace, candidate, result, engine)
                for order, engine in enumerate(group)
                for rank, pace, candidate, result in search(model, gpu, request, lora, engine, reward)
            ]
            if fitting:
                _, _, pace, candidate, result, engine = min(fitting, key=lambda item: item[:2])
                return _Best(engine, lora, pace, candidate, result, len(fitting))
    return None


def recommend(model: ModelSpec, gpu: Gpu, request: RecommendRequest, reward: ModelSpec | None = None) -> Recommendation:
    global_batch = request.global_batch or DEFAULT_GLOBAL_BATCH[request.algorithm]
    samples = _samples_per_step(request.algorithm, global_batch, request.rollout_n)
    if samples % request.num_gpus:
        split = Text.of("compute.split_batch", samples=samples, gpus=request.num_gpus)
        raise InvalidInputError([FieldError("global_batch", split.render(), code=split.code, params=split.params)])
    if not capable_engines(request.algorithm, request.num_gpus, gpu.kind):
        reasons = [
            error_text(error)
            for e in engines()
            if (error := e.unsupported(request.algorithm, request.num_gpus, gpu.kind))
        ]
        suggestions = _suggestions(model, gpu, request, reward)
        return Recommendation(False, global_batch, None, None, None, None, reasons, suggestions, request.samples)
    best = _best(model, gpu, request, reward)
    if best is None:
        suggestions = _suggestions(model, gpu, request, reward)
        return Recommendation(False, global_batch, None, None, None, None, suggestions=suggestions,
                              samples=request.samples)  # fmt: skip
    reasons = _reasons(best.engine, best.request, best.estimate, gpu, best.lora, best.options)
    if best.request.precision != request.precision:
        reasons.append(
            Text.of(
                "compute.precision_as",
                engine=best.engine.name,
                requested=request.precision,
                runs=best.request.precision,
            )
        )
    return Recommendation(
        True, global_batch, best.engine, best.request, best.estimate, best.speed, reasons, samples=request.samples
    )


def error_text(error: FieldError) -> Text:
    """An engine's refusal as a text: in the reader's language where it has a code, else in its English."""
    return Text.of(error.code, **error.params) if error.code else Text.literal(error.message)


def _reasons(
    engine: Engine, chosen: EstimateRequest, result: Estimate, gpu: Gpu, lora: bool, options: int
) -> list[Text]:
    total = result.category_bytes()["total"]
    runs = "compute.engine_runs" if engine.runnable_here(chosen.algorithm) else "compute.engine_runs_elsewhere"
    reasons = [
        Text.of(
            "compute.fastest",
            options=options,
            used=f"{total / GiB:.1f}",
            capacity=f"{gpu.memory_gib:.1f}",
            share=f"{total / gpu.memory_bytes:.0%}",
            phase=phase_text(result.peak_phase).as_dict(),
        ),
        Text.of(runs, engine=engine.name),
    ]
    if lora:
        reasons.append(Text.of("compute.lora_chosen"))
    if chosen.zero_stage and chosen.num_gpus > 1:
        reasons.append(Text.of("compute.sharded", stage=chosen.zero_stage, gpus=chosen.num_gpus))
    if chosen.offload_optimizer or chosen.offload_params:
        host, gpus_on_host = host_ram(chosen, gpu)
        reasons.append(
            Text.of(
                "compute.offloaded_all" if chosen.offload_params else "compute.offloaded_optimizer",
                per_gpu=f"{result.cpu_offload_bytes / GiB:.1f}",
                host_total=f"{result.cpu_offload_bytes * gpus_on_host / GiB:.1f}",
                host=f"{host / GiB:.0f}",
                gpus_on_host=gpus_on_host,
            )
        )
    if chosen.gradient_checkpointing:
        reasons.append(Text.of("compute.checkpointing_on"))
    return reasons + result.notes


def _fits_anything(model, gpu, request: RecommendRequest, reward, **changes) -> bool:
    return _best(model, gpu, request.model_copy(update=changes), reward) is not None


def _suggestions(model: ModelSpec, gpu: Gpu, request: RecommendRequest, reward) -> list[Text]:
    """Alternatives that do fit, from the smallest change to the largest."""
    counts = [n for n in (2, 4, 8, 16, 32, 64) if n > request.num_gpus]
    fewer = [n for n in (8, 4, 2, 1) if n < request.num_gpus]
    lengths = [2**k for k in range(int(math.log2(request.seq_len - 1)), 6, -1)] if request.seq_len > 128 else []
    rank = request.lora_rank
    found: list[Text] = []

    def first(options, describe) -> None:
        for changes in options:
            if _fits_anything(model, gpu, request, reward, **changes):
                found.append(describe(changes))
                return

    if not request.allow_lora:
        first([{"allow_lora": True}], lambda _: Text.of("compute.suggest.lora", rank=rank))
    if not capable_engines(request.algorithm, request.num_gpus, gpu.kind):
        first(
            [{"num_gpus": n} for n in fewer],
            lambda c: Text.of("compute.suggest.gpus", gpus=c["num_gpus"], gpu=gpu.name),
        )
    first(
        [{"num_gpus": n} for n in counts],
        lambda c: Text.of("compute.suggest.more_gpus", gpus=c["num_gpus"], gpu=gpu.name),
    )
    if not request.allow_lora:
        first(
            [{"num_gpus": n, "allow_lora": True} for n in counts],
            lambda c: Text.of("compute.suggest.more_gpus_lora", gpus=c["num_gpus"], gpu=gpu.name, rank=rank),
        )
    first([{"seq_len": n} for n in lengths], lambda c: Text.of("compute.suggest.shorter", tokens=c["seq_len"]))
    if not request.allow_lora:
        first(
            [{"seq_len": n, "allow_lora": True} for n in lengths],
            lambda c: Text.of("compute.suggest.shorter_lora", tokens=c["seq_len"], rank=rank),
        )
    larger = sorted(
        (g for g in CATALOG.values() if g.kind == gpu.kind and g.memory_bytes > gpu.memory_bytes),
        key=lambda g: g.memory_bytes,
    )
    for candidate in larger:
        if _fits_anything(model, candidate, request, reward):
            found.append(
                Text.of("compute.suggest.larger_gpu", gpu=candidate.name, memory=f"{candidate.memory_gib:.0f}")
            )
            break
    return found or [Text.of("compute.suggest.nothing")]


# ---- output --------------------------------------------------------------------------------------------


def job_engine_settings(recommendation: Recommendation) -> dict[str, Any]:
    """What the recommendation chose that a job's parameters do not hold, as its engine's own settings (a job's
    engine_settings): the rollout engine's share of the GPU, where the search sized one (_with_rollout_share)."""
    request, engine = recommendation.request, recommendation.engine
    setting = engine.capabilities.step.rollout_memory_setting
    if setting is None or request.algorithm not in RL_ALGORITHMS or recommendation.estimate.gpu.kind != "cuda":
        return {}
    return {setting: request.gpu_memory_utilization}


def job_params(recommendation: Recommendation) -> dict[str, Any]:
    """Parameters for POST /api/v1/jobs with the recommended engine, valid for the algorithm as they are."""
    request = recommendation.request
    params: dict[str, Any] = {
        "batch_size": recommendation.global_batch,
        "micro_batch_size": request.micro_batch,
        "num_gpus": request.num_gpus,
        "precision": "fp32" if request.precision == "fp32" else "bf16",
        "gradient_checkpointing": request.gradient_checkpointing,
    }
    if request.num_gpus > 1:
        params["zero_stage"] = request.zero_stage
    if request.offload_optimizer:
        params["cpu_offload"] = "all" if request.offload_params else "optimizer"
    if request.lora_rank:
        params["lora"] = {"rank": request.lora_rank, "alpha": 2 * request.lora_rank}
    if request.algorithm in RL_ALGORITHMS:
        params.update(
            rollout_n=request.rollout_n,
            max_prompt_length=request.seq_len // 4,
            max_response_length=request.seq_len - request.seq_len // 4,
        )
    else:
        params["max_length"] = request.seq_len
    if recommendation.steps is not None:
        params["max_steps"] = recommendation.steps  # the duration it sized: the request's samples, in steps
    return params
