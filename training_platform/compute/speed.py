"""How fast a training step runs: tokens per second and seconds per optimizer step, with a range.

A step's time on one GPU is its model FLOPs at a calibrated fraction of the GPU's dense bf16 rate, plus the
memory traffic that matmuls do not hide (the element-wise work: norms, activations, casts, the loss), plus the
optimizer's pass over its states, plus what sharding, offloading and (RL) generation add:

- FLOPs per token (2 per multiply-add): forward 2·N over the matmul weights N (the layers' projections and the
  LM head, tied or not) and causal attention 2·L·d_q·s; the backward pass twice the forward, or, for a frozen
  weight (LoRA), once (no weight gradient); gradient checkpointing recomputes the layers' forward; TRL's fused
  LM head recomputes its projection in the backward; DPO scores chosen and rejected and runs the reference's
  forward; PPO trains a critic of the actor's size;
- the element-wise traffic is proportional to what the step keeps for backward (memory.py), a few passes over
  it, at the GPU's bandwidth;
- RL generation is bound by memory bandwidth: each decoded token reads the weights and the KV cache once for
  all the sequences decoded together;
- the tokens a step computes are its samples' (compute/lengths.py): packed, the samples' own tokens; padded, each
  micro-batch's rows as long as its longest sample. The speed counts the trained (non-padding) tokens, and without
  the dataset's sample lengths every sample counts as seq_len tokens.

The constants (the matmul efficiency and the element-wise passes) were fitted to the eight H100 points with a
throughput in benchmarks/compute/h100_cases.py (docs/benchmarks.md, "Speed"), minimising the worst error: the
measured time of every point is within SPREAD of the estimate, which is the range given on H100s. Other
GPUs are scaled by their datasheet rate and bandwidth, which that fit does not check, so their range is wider.
"""

import math
from dataclasses import dataclass

from training_platform.compute.gpus import Gpu
from training_platform.compute.lengths import mean_tokens, padded_row_tokens
from training_platform.compute.memory import EstimateRequest, Step, step_profile
from training_platform.compute.model import ModelSpec
from training_platform.contract.params import RL_ALGORITHMS, Algorithm

# Fitted (see the module's docstring); the matmul efficiency is fixed at half the datasheet rate (an H100's
# large bf16 matmuls reach ~800 of its 989 TFLOP/s, training's mixed shapes less), the passes are fitted.
MATMUL_EFFICIENCY = 0.5
# Reads and writes of what a step keeps for backward (forward and backward together): in the layers, again
# when checkpointing recomputes them, and in the loss.
LAYER_PASSES = 20.0
RECOMPUTE_PASSES = 3.0
HEAD_PASSES = 16.0
DECODE_EFFICIENCY = 0.5  # of the bandwidth, while generating token by token (TRL's model.generate, vLLM)
CALIBRATED_ON = {"H100-80G"}
# Measured / estimated seconds over the calibration points: the range reported where the GPU was measured, and
# where it was not (datasheet scaling only).
SPREAD = (0.77, 1.29)
UNCALIBRATED_SPREAD = (0.5, 1.6)
INTERCONNECT_GBS = 300.0  # NVLink-class all-gather / reduce-scatter bandwidth per GPU
PCIE_GBS = 25.0  # host <-> device
CPU_ADAM_GBS = 20.0  # bytes of optimizer state a CPU Adam step streams per second
# Bytes an AdamW step reads and writes per parameter (weight, gradient, two moments read; three written).
_ADAM_TRAFFIC = {2: 14, 4: 28}


@dataclass(frozen=True)
class Speed:
    tokens_per_second: float  # over every GPU of the job
    step_seconds: float  # one optimizer step
    low_seconds: float
    high_seconds: float
    samples_per_step: int
    basis: str
    tokens_per_step: float  # trained tokens, every GPU's
    padding_ratio: float  # of the tokens the step computes
    packed: bool


@dataclass(frozen=True)
class SampleTokens:
    """What one sample costs a step: tokens computed (its padding included) and trained, and what attention spans."""

    computed: float
    trained: float
    span: float  # the length of the rows attention runs over
    assumption: str


def sample_tokens(request: EstimateRequest) -> SampleTokens:
    lengths, seq_len = request.sample_lengths, request.seq_len
    trained = mean_tokens(lengths, seq_len) if lengths is not None else float(seq_len)
    if request.packed:
        # SDPA and eager run over the whole pack with its block-diagonal mask; flash attention sample by sample.
        span = trained if request.attention == "flash" else float(request.sequence_tokens)
        note = "packed, no padding" if lengths is not None else "packed; samples counted at seq_len tokens"
        return SampleTokens(trained, trained, span, note)
    padded = padded_row_tokens(request.micro_batch, seq_len, lengths)
    if padded is None:
        return SampleTokens(seq_len, seq_len, seq_len, "padded; samples counted at seq_len tokens")
    source = "length histogram" if lengths.histogram is not None else "measured padding ratio"
    note = f"padded to each micro-batch's longest sample ({1 - trained / padded:.0%} padding, from the {source})"
    return SampleTokens(padded, trained, padded, note)


def flops_per_token(model: ModelSpec, request: EstimateRequest, span: float | None = None) -> float:
    """Training FLOPs of one token (of one sequence; DPO's pair counts its two sequences) in rows of `span` tokens
    (default seq_len)."""
    m = model
    layers = m.num_layers * (m.attention_params + m.mlp_params)
    head = m.vocab_size * m.hidden_size
    span = request.seq_len if span is None else span
    attention = 2 * m.num_layers * m.q_dim * span  # QKᵀ and AV over half the matrix (causal)
    forward_layers = 2 * layers + attention
    forward = forward_layers + 2 * head
    frozen = request.lora_rank > 0
    backward = (2 if frozen else 4) * (layers + head) + 2 * attention
    total = forward + backward
    if request.gradient_checkpointing:
        total += forward_layers
    if step_profile(request.engine).fused_lm_head:
        total += 2 * head  # the fused head's backward recomputes its tiles
    if request.uses_reference:
        total += forward  # the reference model's forward (DPO's reference log-probs, RL's KL)
    if request.algorithm == Algorithm.PPO:
        total *= 2  # the critic: a model of the actor's size, trained alongside
    return total


def speed(model: ModelSpec, gpu: Gpu, request: EstimateRequest, samples_per_step: int) -> Speed | None:
    """Time of one optimizer step over `samples_per_step` sequences (all GPUs together); None where the GPU has
    no throughput figure (the CPU)."""
    if gpu.bf16_tflops <= 0 or gpu.bandwidth_gbs <= 0:
        return None
    step = Step(model, request, gpu)
    bandwidth = gpu.bandwidth_gbs * 1e9
    sequences_per_gpu = samples_per_step / request.num_gpus
    per_sample = sample_tokens(request)
    tokens_per_gpu = sequences_per_gpu * per_sample.computed * request.rows_per_sample
    layer_passes = LAYER_PASSES + (RECOMPUTE_PASSES if request.gradient_checkpointing else 0)
    traffic = (
        layer_passes * model.num_layers * step.layer_saved_per_token() + HEAD_PASSES * step.head_saved() / step.tokens
    )
    flops = flops_per_token(model, request, per_sample.span)
    per_token = flops / (gpu.bf16_tflops * 1e12 * MATMUL_EFFICIENCY) + traffic / bandwidth
    seconds = tokens_per_gpu * per_token
    parts = [per_sample.assumption,
             f"{flops / 1e9:.1f} GFLOP per token at {MATMUL_EFFICIENCY:.0%} of {gpu.bf16_tflops:g} TFLOP/s, "
             f"element-wise traffic at {gpu.bandwidth_gbs:g} GB/s"]  # fmt: skip
    state_bytes = step.trainable / (request.shard_degree if request.zero_stage >= 1 else 1)
    if not request.offload_optimizer:
        seconds += state_bytes * _ADAM_TRAFFIC[4 if step.optimizer_bytes >= 8 else 2] / bandwidth
    seconds += _communication(model, request, step, sequences_per_gpu)
    if request.algorithm in RL_ALGORITHMS:
        generation = _generation_seconds(model, gpu, request, sequences_per_gpu)
        seconds += generation
        parts.append(f"generation {generation:.1f} s, bound by memory bandwidth")
    calibrated = gpu.name in CALIBRATED_ON
    low, high = SPREAD if calibrated else UNCALIBRATED_SPREAD
    parts.append(
        f"calibrated on {gpu.name} (range ×{low}–×{high})"
        if calibrated
        else f"calibrated on {', '.join(sorted(CALIBRATED_ON))} only: scaled by datasheet figures (range "
        f"×{low}–×{high})"
    )
    trained = tokens_per_gpu * request.num_gpus * per_sample.trained / per_sample.computed
    return Speed(
        tokens_per_second=trained / seconds,
        step_seconds=seconds,
        low_seconds=seconds * low,
        high_seconds=seconds * high,
        samples_per_step=samples_per_step,
        basis="; ".join(parts),
        tokens_per_step=trained,
        padding_ratio=1 - per_sample.trained / per_sample.computed,
        packed=request.packed,
    )


def _communication(model: ModelSpec, request: EstimateRequest, step: Step, sequences_per_gpu: float) -> float:
    """Sharding's gathers and reductions, and offloading's host traffic, per optimizer step."""
    seconds = 0.0
    params = model.num_parameters
    micro_steps = math.ceil(sequences_per_gpu / request.micro_batch)
    if request.num_gpus > 1:
        gathers = 2 * micro_steps if request.zero_stage == 3 else 0
        seconds += (gathers + 1) * params * 2 / (INTERCONNECT_GBS * 1e9)
    if request.offload_optimizer:
        seconds += step.trainable * 16 / request.shard_degree / (CPU_ADAM_GBS * 1e9)
        seconds += step.trainable * 4 / request.shard_degree / (PCIE_GBS * 1e9)
    if request.offload_params:
        seconds += micro_steps * 2 * params * 2 / request.shard_degree / (PCIE_GBS * 1e9)
    return seconds


def _generation_seconds(model: ModelSpec, gpu: Gpu, request: EstimateRequest, sequences_per_gpu: float) -> float:
    """Decoding the responses (three quarters of seq_len, as the recommender splits it) in waves of the sequences
    one GPU generates at once: each token reads the weights and the average KV cache once per wave."""
    at_once = (request.prompts_per_gpu or request.micro_batch) * request.rollout_n
    waves = math.ceil(sequences_per_gpu / at_once)
    response = request.seq_len - request.seq_len // 4
    weights = model.num_parameters * 2
    kv_cache = 2 * model.num_layers * model.kv_dim * 2 * request.seq_len * at_once / 2  # on average half full
    return waves * response * (weights + kv_cache) / (gpu.bandwidth_gbs * 1e9 * DECODE_EFFICIENCY)
