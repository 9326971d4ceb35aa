"""Per-GPU memory of a training step, as a breakdown in which every term says what it is and why.

The model is of a plain training step of a Hugging Face decoder (Llama/Qwen2/Mistral modeling code)
— forward with labels, backward, optimizer step, gradients freed — which is what TRL and verl's FSDP
workers run. Its terms:

- model states (ZeRO paper, arXiv 1910.02054): weights, gradients and optimizer states per parameter by
  precision and optimizer, sharded over the data-parallel group by ZeRO/FSDP stage (1: optimizer,
  2: + gradients, 3: + weights, with the largest module gathered), or moved to CPU by offloading;
- activations, counted tensor by tensor from what autograd saves in the HF modeling code (checked
  against `torch.autograd.graph.saved_tensors_hooks`): two RMSNorms (12 bytes per hidden unit each:
  they upcast to fp32 whatever the compute dtype), the attention inputs and output, the s×s scores for
  eager attention (what flash/sdpa avoid), four MLP tensors, and the fp32 log-softmax of the loss;
  gradient checkpointing keeps only each layer's input and recomputes one layer at a time;
- the peak of the step: the start of the backward pass (all activations plus the loss gradients), a
  later point of the backward pass (fewer activations, more gradients), or the optimizer step
  (all gradients plus the optimizer's temporaries), whichever is largest;
- for RL (verl, colocated): the rollout engine's reservation (vLLM `gpu_memory_utilization`, taken
  while the trainer's activations are freed), the KV cache the rollout needs, reference, critic and
  reward models;
- framework overhead: CUDA context and allocator fragmentation (none for the CPU, where the figure
  is compared with the process's measured peak).
"""

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from training_platform.compute.gpus import GiB, Gpu
from training_platform.compute.model import ModelSpec
from training_platform.contract.params import (
    MAX_BATCH,
    MAX_GPUS,
    MAX_ROLLOUTS,
    MAX_SEQUENCE_LENGTH,
    RL_ALGORITHMS,
    Algorithm,
)

Precision = Literal["bf16-amp", "bf16", "fp32"]
Optimizer = Literal["adamw", "adamw8bit", "sgd"]
Attention = Literal["flash", "sdpa", "eager"]
ALL_LINEARS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]

# Bytes per parameter: (weights, gradients) by precision; optimizer states per trainable parameter.
# bf16-amp follows the ZeRO paper: 2-byte weights and gradients, fp32 master copy inside the optimizer.
_WEIGHT_GRAD_BYTES = {"bf16-amp": (2, 2), "bf16": (2, 2), "fp32": (4, 4)}
_OPTIMIZER_BYTES = {
    ("bf16-amp", "adamw"): (12, "fp32 master weights + first and second moments, 4 + 4 + 4"),
    ("bf16-amp", "adamw8bit"): (6, "fp32 master weights + two 8-bit moments, 4 + 1 + 1"),
    ("bf16-amp", "sgd"): (8, "fp32 master weights + momentum, 4 + 4"),
    ("bf16", "adamw"): (4, "two bf16 moments, 2 + 2"),
    ("bf16", "adamw8bit"): (2, "two 8-bit moments, 1 + 1"),
    ("bf16", "sgd"): (2, "bf16 momentum"),
    ("fp32", "adamw"): (8, "two fp32 moments, 4 + 4"),
    ("fp32", "adamw8bit"): (2, "two 8-bit moments, 1 + 1"),
    ("fp32", "sgd"): (4, "fp32 momentum"),
}
CUDA_CONTEXT_BYTES = int(0.5 * GiB)  # CUDA context, cuBLAS/NCCL workspaces: outside PyTorch's allocator
CUDA_FRAGMENTATION = 0.10  # reserved but unusable blocks of the caching allocator, of the peak
MPS_OVERHEAD_BYTES = int(0.3 * GiB)
VLLM_WORKSPACE_BYTES = int(1 * GiB)  # vLLM's activation profiling and CUDA graphs, besides weights and KV cache


class EstimateRequest(BaseModel):
    """Bounded as a job's parameters are (contract/params.py), so that no request costs seconds to price."""

    model_config = ConfigDict(extra="forbid")

    seq_len: int = Field(gt=0, le=MAX_SEQUENCE_LENGTH, description="Tokens per sample (prompt + response for RL).")
    micro_batch: int = Field(default=1, gt=0, le=MAX_BATCH, description="Samples per GPU per forward pass.")
    num_gpus: int = Field(default=1, gt=0, le=MAX_GPUS)
    algorithm: Algorithm = Algorithm.SFT
    precision: Precision = "bf16-amp"
    optimizer: Optimizer = "adamw"
    zero_stage: int = Field(default=0, ge=0, le=3, description="ZeRO / FSDP sharding stage.")
    shard_size: int | None = Field(
        default=None, gt=0, le=MAX_GPUS, description="HSDP: shard within groups of this size."
    )
    offload_optimizer: bool = False
    offload_params: bool = False
    gradient_checkpointing: bool = False
    attention: Attention = "flash"
    lora_rank: int = Field(default=0, ge=0, le=1024)
    lora_targets: list[str] = Field(default_factory=lambda: list(ALL_LINEARS), max_length=len(ALL_LINEARS))
    rollout_n: int = Field(default=8, gt=0, le=MAX_ROLLOUTS, description="RL: responses per prompt.")
    prompts_per_gpu: int | None = Field(
        default=None, gt=0, le=MAX_BATCH, description="RL: prompts one GPU rolls out at once."
    )
    gpu_memory_utilization: float = Field(default=0.5, gt=0, lt=1, description="RL: vLLM's share of the GPU.")
    reference_model: bool | None = Field(default=None, description="Keep a reference model (default per algorithm).")
    host_memory_gib: float | None = Field(default=None, gt=0, le=2**30, description="CPU RAM per GPU for offloading.")

    @model_validator(mode="after")
    def _sharding(self) -> "EstimateRequest":
        if self.shard_size is not None and (self.shard_size > self.num_gpus or self.num_gpus % self.shard_size):
            raise ValueError(f"shard_size {self.shard_size} must divide num_gpus {self.num_gpus}")
        if self.offload_params and self.zero_stage != 3:
            raise ValueError("offload_params needs zero_stage 3 (parameters are only offloadable when sharded)")
        return self

    @property
    def shard_degree(self) -> int:
        return self.shard_size or self.num_gpus

    @property
    def uses_reference(self) -> bool:
        if self.reference_model is not None:
            return self.reference_model
        return self.algorithm != Algorithm.SFT  # DPO's frozen reference; RL's KL reference


@dataclass(frozen=True)
class Term:
    key: str
    category: str  # weights | gradients | optimizer | activations | rl_extra | overhead
    bytes: int
    formula: str
    explanation: str


CATEGORIES = ("weights", "gradients", "optimizer", "activations", "rl_extra", "overhead")


@dataclass
class Estimate:
    model: ModelSpec
    gpu: Gpu
    request: EstimateRequest
    terms: list[Term]
    peak_phase: str
    trainable_parameters: int
    cpu_offload_bytes: int
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # reasons it cannot run however much memory is left

    def category_bytes(self) -> dict[str, int]:
        totals = {category: 0 for category in CATEGORIES}
        for term in self.terms:
            totals[term.category] += term.bytes
        totals["total"] = sum(totals[c] for c in CATEGORIES)
        return totals

    @property
    def total_bytes(self) -> int:
        return self.category_bytes()["total"]

    @property
    def fits(self) -> bool:
        return self.total_bytes <= self.gpu.memory_bytes and not self.problems


def _gib(value: float) -> str:
    return f"{value / GiB:.2f} GiB"


class _Step:
    """The arithmetic of one training step of `model` on one GPU."""

    def __init__(self, model: ModelSpec, request: EstimateRequest, gpu: Gpu):
        self.m, self.r, self.gpu = model, request, gpu
        self.element = 4 if request.precision == "fp32" else 2  # bytes of an activation
        self.weight_bytes, self.grad_bytes = _WEIGHT_GRAD_BYTES[request.precision]
        self.tokens = request.micro_batch * request.seq_len * (2 if request.algorithm == Algorithm.DPO else 1)
        self.lora = request.lora_rank > 0
        self.trainable = (
            model.lora_params(request.lora_rank, request.lora_targets) if self.lora else model.num_parameters
        )

    # ---- activations, bytes per token --------------------------------------------------------------

    def layer_saved_per_token(self) -> int:
        m, e = self.m, self.element
        targets = set(self.r.lora_targets) if self.lora else set(m.linear_shapes())

        def needs_input(*modules: str) -> bool:  # a frozen linear needs no input to pass gradients back
            return bool(targets & set(modules))

        # An RMSNorm keeps its fp32 input (and, when its weight trains, its normalised value): 4 or 8 bytes
        # per hidden unit; its output is kept when a following projection needs its input.
        norm = (8 if not self.lora else 4) * m.hidden_size
        saved = 2 * norm
        saved += m.hidden_size * e * (needs_input("q_proj", "k_proj", "v_proj") + needs_input("gate_proj", "up_proj"))
        if self.r.attention == "eager":
            scores = m.num_heads * self.r.seq_len * (4 if e == 4 else 6)  # fp32 softmax (+ its bf16 copy)
            saved += 3 * m.q_dim * e + scores  # q, and k and v repeated to every head
            saved += m.q_dim * e * needs_input("o_proj")  # the heads' output, re-laid out for o_proj
        else:
            saved += (2 * m.q_dim + 2 * m.kv_dim) * e + 4 * m.num_heads  # q, k, v, output, log-sum-exp
        saved += 3 * m.intermediate_size * e  # gate, its SiLU, up
        saved += m.intermediate_size * e * needs_input("down_proj")  # their product, down_proj's input
        if self.lora:
            saved += len(targets) * self.r.lora_rank * e  # each adapter's rank-r intermediate
        return saved

    def layer_backward_workspace_per_token(self) -> int:
        m, e = self.m, self.element
        widest = 3 * m.intermediate_size
        if self.r.attention == "eager":
            widest = max(widest, 2 * m.num_heads * self.r.seq_len)
        return widest * e

    def head_saved(self) -> int:
        """Final norm and the loss's fp32 log-softmax (bf16 logits are upcast first; the copy is not kept)."""
        per_token = 12 * self.m.hidden_size + 4 * self.m.vocab_size
        return per_token * self.tokens

    def head_backward_workspace(self) -> int:
        """Gradients of the log-probabilities and of the logits (fp32, + bf16 cast back)."""
        per_token = self.m.vocab_size * (8 if self.element == 4 else 10)
        return per_token * self.tokens

    # ---- the peak of the backward pass and of the optimizer step -----------------------------------

    def grad_of(self, params: int) -> int:
        """Gradient bytes of `params` trainable parameters kept on this GPU while backward runs."""
        if self.lora:
            return 0  # adapters: small, counted whole in the gradients term
        shard = self.r.shard_degree if self.r.zero_stage >= 2 else 1
        return params * self.grad_bytes // shard

    def backward_peak_beyond_states(self) -> tuple[int, str]:
        """Largest (activations + gradients so far + workspace) during backward, and where it happens."""
        m, tokens = self.m, self.tokens
        layer_saved = self.layer_saved_per_token() * tokens
        workspace = self.layer_backward_workspace_per_token() * tokens
        if self.r.gradient_checkpointing:
            kept = m.num_layers * m.hidden_size * self.element * tokens  # each layer's input
            recomputed = layer_saved  # one layer at a time
            at_head = kept + self.head_saved() + self.head_backward_workspace()
            in_layers = kept + recomputed + workspace + self.grad_of(m.lm_head_params)
            candidates = [(at_head, "start of backward (loss gradients)"), (in_layers, "recomputing a layer")]
        else:
            remaining = m.num_layers * layer_saved
            at_head = remaining + self.head_saved() + self.head_backward_workspace()
            candidates = [(at_head, "start of backward (loss gradients)")]
            grads = self.grad_of(m.lm_head_params)
            for index in range(m.num_layers):
                candidates.append((remaining + grads + workspace, f"backward of layer {m.num_layers - index}"))
                remaining -= layer_saved
                grads += self.grad_of(m.layer_params)
        position = self.r.seq_len * m.head_dim * 2 * self.element  # rotary cos/sin, shared by all layers
        peak, where = max(candidates, key=lambda c: c[0])
        return peak + position, where

    def optimizer_step_workspace(self) -> int:
        """PyTorch's multi-tensor AdamW (CUDA) takes sqrt of all second moments at once: one fp32 copy of
        the (sharded) trainable parameters; the per-tensor CPU implementation needs only the largest."""
        if self.r.optimizer == "sgd" or self.r.offload_optimizer:
            return 0
        if self.gpu.kind == "cpu":
            return 2 * 4 * (self.m.largest_module_params if not self.lora else 0)
        shard = self.r.shard_degree if self.r.zero_stage >= 1 else 1
        return 4 * self.trainable // shard


def estimate(model: ModelSpec, gpu: Gpu, request: EstimateRequest, reward_model: ModelSpec | None = None) -> Estimate:
    step = _Step(model, request, gpu)
    r, d = request, request.shard_degree
    terms: list[Term] = []
    notes: list[str] = []
    problems: list[str] = []
    cpu_offload = 0
    P, trainable = model.num_parameters, step.trainable

    # ---- model states --------------------------------------------------------------------------
    weight_shard = d if r.zero_stage == 3 else 1
    if r.offload_params:
        gathered = 2 * model.largest_module_params * step.weight_bytes
        terms.append(
            Term(
                "weights",
                "weights",
                gathered,
                "2 × largest module × bytes/param",
                "parameters live on the CPU; the current and the prefetched module are gathered on the GPU",
            )
        )
        cpu_offload += P * step.weight_bytes // d
    else:
        weights = P * step.weight_bytes // weight_shard
        formula = f"{P:,} params × {step.weight_bytes} B" + (f" / {d} GPUs" if weight_shard > 1 else "")
        explanation = f"{'bf16' if step.weight_bytes == 2 else 'fp32'} weights" + (
            ", sharded by ZeRO-3/FSDP" if weight_shard > 1 else ", one full copy per GPU"
        )
        terms.append(Term("weights", "weights", weights, formula, explanation))
        if r.zero_stage == 3:
            gathered = model.largest_module_params * (step.weight_bytes + step.grad_bytes)
            terms.append(
                Term(
                    "gathered_weights",
                    "weights",
                    gathered,
                    "largest module × (weight + gradient bytes)",
                    "ZeRO-3 gathers a whole module (and its gradient) to compute it, as DeepSpeed estimates",
                )
            )

    grad_shard = d if r.zero_stage >= 2 else 1
    gradients = trainable * step.grad_bytes // grad_shard
    if r.offload_params:
        cpu_offload += gradients
        gradients = 0
    terms.append(
        Term(
            "gradients",
            "gradients",
            gradients,
            f"{trainable:,} trainable params × {step.grad_bytes} B" + (f" / {d}" if grad_shard > 1 else ""),
            ("LoRA: only the adapters have gradients" if step.lora else "one gradient per weight")
            + (", sharded (ZeRO-2+)" if grad_shard > 1 else "")
            + (", offloaded with the parameters" if r.offload_params else ""),
        )
    )

    per_param, what = _OPTIMIZER_BYTES[(r.precision, r.optimizer)]
    opt_shard = d if r.zero_stage >= 1 else 1
    optimizer = trainable * per_param // opt_shard
    if r.offload_optimizer:
        cpu_offload += optimizer
        terms.append(Term("optimizer", "optimizer", 0, "offloaded", f"{r.optimizer} states ({what}) are on the CPU"))
    else:
        terms.append(
            Term(
                "optimizer",
                "optimizer",
                optimizer,
                f"{trainable:,} × {per_param} B" + (f" / {d}" if opt_shard > 1 else ""),
                f"{r.optimizer}: {what}" + (", sharded (ZeRO-1+)" if opt_shard > 1 else ""),
            )
        )

    # ---- activations: the larger of the backward pass and the optimizer step -----------------------
    backward, where = step.backward_peak_beyond_states()
    backward_beyond_grads = backward - gradients
    optimizer_workspace = step.optimizer_step_workspace()
    if backward_beyond_grads >= optimizer_workspace:
        peak_phase = where
        activations = max(backward_beyond_grads, 0)
        terms.append(
            Term(
                "activations",
                "activations",
                activations,
                f"{step.tokens:,} tokens × saved bytes/token + workspace, at the {where}",
                _activation_explanation(step, where),
            )
        )
    else:
        peak_phase = "optimizer step"
        activations = optimizer_workspace
        terms.append(
            Term(
                "optimizer_workspace",
                "activations",
                optimizer_workspace,
                "temporaries of the optimizer step",
                "the optimizer step is the peak: all gradients are alive and PyTorch's multi-tensor AdamW makes "
                "a temporary the size of the second moments (fused=True avoids it); activations are freed by then",
            )
        )

    # ---- RL / DPO companions ------------------------------------------------------------------------
    if r.uses_reference and not step.lora:
        ref = P * 2 // weight_shard
        terms.append(
            Term(
                "reference_model",
                "rl_extra",
                ref,
                f"{P:,} params × 2 B" + (f" / {d}" if r.zero_stage == 3 else ""),
                "frozen bf16 reference model for the KL term / DPO's reference log-probs",
            )
        )
    elif r.uses_reference:
        notes.append("LoRA: the reference is the base model with adapters disabled, so no second copy")
    if r.algorithm == Algorithm.PPO:
        critic = P * (step.weight_bytes + step.grad_bytes + per_param) // opt_shard
        terms.append(
            Term(
                "critic",
                "rl_extra",
                critic,
                "params × (weight + gradient + optimizer bytes) / shards",
                "PPO's critic (a value model of the actor's size) with its own gradients and optimizer",
            )
        )
        if reward_model is not None:
            reward = reward_model.num_parameters * 2 // weight_shard
            terms.append(
                Term("reward_model", "rl_extra", reward, f"{reward_model.num_parameters:,} × 2 B", "bf16 reward model")
            )
    if r.algorithm in RL_ALGORITHMS and gpu.kind == "cuda":
        reservation = int(r.gpu_memory_utilization * gpu.memory_bytes)
        over_activations = max(0, reservation - activations)
        terms.append(
            Term(
                "rollout_reservation",
                "rl_extra",
                over_activations,
                f"max(0, gpu_memory_utilization {r.gpu_memory_utilization} × {_gib(gpu.memory_bytes)} − activations)",
                "vLLM takes this share of the GPU during rollout, while the trainer's activations are "
                "freed; counted only where it exceeds them",
            )
        )
        needed = _kv_cache_needed(model, r)
        vllm_weights = P * 2 // r.num_gpus  # its own bf16 copy, tensor-parallel over the node's GPUs
        kv_room = reservation - vllm_weights - VLLM_WORKSPACE_BYTES
        one_sequence = _kv_cache_needed(model, r.model_copy(update={"rollout_n": 1, "prompts_per_gpu": 1}))
        if kv_room < one_sequence:
            problems.append(
                f"vLLM's share ({_gib(reservation)}) cannot hold its weights ({_gib(vllm_weights)}), its workspace "
                f"and the KV cache of one {r.seq_len}-token sequence ({_gib(one_sequence)})"
            )
        notes.append(
            f"KV cache for {r.rollout_n} responses × {r.prompts_per_gpu or r.micro_batch} prompts of {r.seq_len} "
            f"tokens: {_gib(needed)}; vLLM has ~{_gib(max(kv_room, 0))} for it after its weights"
            + ("" if needed <= kv_room else " — it will run them in several waves (slower, not out of memory)")
        )

    # ---- overhead -----------------------------------------------------------------------------------
    subtotal = sum(t.bytes for t in terms)
    if gpu.kind == "cuda":
        overhead = CUDA_CONTEXT_BYTES + int(CUDA_FRAGMENTATION * subtotal)
        formula = f"0.5 GiB + {CUDA_FRAGMENTATION:.0%} of the rest"
        explanation = "CUDA context and library workspaces, plus the caching allocator's fragmentation"
    elif gpu.kind == "mps":
        overhead, formula = MPS_OVERHEAD_BYTES, "0.3 GiB"
        explanation = "Metal and PyTorch runtime"
    else:
        overhead, formula = 0, "0"
        explanation = "none counted: the CPU figure is compared with the process's peak above its start"
    terms.append(Term("overhead", "overhead", overhead, formula, explanation))
    if cpu_offload:
        if gpu.kind != "cuda":
            problems.append("offloading to the CPU is only available with CUDA GPUs (DeepSpeed / FSDP)")
        host = int(r.host_memory_gib * GiB) if r.host_memory_gib else gpu.host_memory_bytes
        if cpu_offload > host:
            problems.append(f"offloading needs {_gib(cpu_offload)} of CPU RAM per GPU; the host has {_gib(host)}")
        else:
            notes.append(f"CPU RAM for offloaded states: {_gib(cpu_offload)} per GPU (host has ~{_gib(host)})")
    return Estimate(model, gpu, request, terms, peak_phase, trainable, cpu_offload, notes, problems)


def _activation_explanation(step: _Step, where: str) -> str:
    parts = [
        f"{step.layer_saved_per_token():,} B/token saved per layer",
        "eager attention keeps the s×s scores"
        if step.r.attention == "eager"
        else f"{step.r.attention} attention keeps no s×s scores",
    ]
    if step.r.gradient_checkpointing:
        parts.append("gradient checkpointing keeps only each layer's input and recomputes one layer at a time")
    parts.append(f"peak at the {where}")
    return "; ".join(parts)


def _kv_cache_needed(model: ModelSpec, request: EstimateRequest) -> int:
    sequences = (request.prompts_per_gpu or request.micro_batch) * request.rollout_n
    return 2 * model.num_layers * model.kv_dim * 2 * request.seq_len * sequences
