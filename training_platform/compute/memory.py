"""Per-GPU memory of a training step, as a breakdown in which every term says what it is and why.

The model is of the training step of a Hugging Face decoder (Llama/Qwen2/Mistral modeling code) as the
engine named in the request runs it (forward, backward, optimizer step, gradients freed):

- `plain`: a plain PyTorch loop, forward with labels (the modeling code's loss upcasts the whole
  (tokens × vocabulary) logits to fp32), `torch.optim.AdamW` with PyTorch's default implementation;
- `trl`: the platform's TRL engine. TRL 1.16's SFT, DPO and GRPO trainers patch the model with a fused
  LM head (`trl.trainer.utils.add_fused_lm_head`, `trl/kernels/chunked_logprob.py`) that scores the
  labels in tiles of 4,096 tokens × 32,768 vocabulary entries and never builds the logits; its backward
  accumulates the LM head's and the hidden states' gradients in fp32. The optimizer is transformers'
  default (`optim="adamw_torch_fused"` from torch 2.8: `torch.optim.AdamW(fused=True)` on every device).
  Precision follows the engine's policy: bf16 loads the model and its reference in bf16 (weights,
  gradients and AdamW moments in bf16); bf16-amp is fp32 weights under autocast (what its fp16
  precision does, memory-wise); fp32 is fp32;
- `verl`: verl's FSDP workers, as the ZeRO paper counts mixed precision (2-byte weights and gradients,
  12 bytes of fp32 master weights and moments), `torch.optim.AdamW` with PyTorch's default
  implementation, the full logits for the log-probabilities.

Its terms:

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
from training_platform.engines.base import StepProfile
from training_platform.engines.registry import get_engine

Precision = Literal["bf16-amp", "bf16", "fp32"]
Optimizer = Literal["adamw", "adamw8bit", "sgd"]
# PyTorch's three AdamW implementations: one kernel over all tensors, one op per group of tensors (its
# temporaries span every tensor), one tensor at a time.
OptimizerImplementation = Literal["fused", "foreach", "for-loop"]
Attention = Literal["flash", "sdpa", "eager"]
EngineName = Literal["trl", "verl", "plain"]
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
# CUDA context, cuBLAS workspaces: outside PyTorch's allocator. 0.60 GiB on an H100 with torch 2.11
# (docs/benchmarks.md, "H100 cases").
CUDA_CONTEXT_BYTES = int(0.6 * GiB)
# Reserved but unused blocks of the caching allocator, of the peak: reserved/allocated was 1.02-1.24 in
# the H100 cases (docs/benchmarks.md); the estimate aims at the lower half of that band.
CUDA_FRAGMENTATION = 0.05
MPS_OVERHEAD_BYTES = int(0.3 * GiB)
VLLM_WORKSPACE_BYTES = int(1 * GiB)  # vLLM's activation profiling and CUDA graphs, besides weights and KV cache
# A plain PyTorch loop (forward with labels, torch.optim.AdamW, no reference or rollouts): what the benchmarks
# measure the engines against. The engines' own profiles are their capabilities (engines/*/engine.py).
PLAIN_STEP = StepProfile(
    fp32_weights_under_amp=True,
    bf16_compute=False,
    fused_lm_head=False,
    fused_optimizer=False,
    optimizer="torch.optim.AdamW",
    reference_bytes=None,
    reference_in_step=False,
    rollout=None,
)


def step_profile(engine: str) -> StepProfile:
    return PLAIN_STEP if engine == "plain" else get_engine(engine).capabilities.step


class EstimateRequest(BaseModel):
    """Bounded as a job's parameters are (contract/params.py), so that no request costs seconds to price."""

    model_config = ConfigDict(extra="forbid")

    engine: EngineName = Field(
        default="trl",
        description="What runs the step: the platform's TRL or verl engine, or a plain PyTorch loop "
        "(forward with labels); each holds different memory.",
    )
    seq_len: int = Field(gt=0, le=MAX_SEQUENCE_LENGTH, description="Tokens per sample (prompt + response for RL).")
    micro_batch: int = Field(default=1, gt=0, le=MAX_BATCH, description="Samples per GPU per forward pass.")
    num_gpus: int = Field(default=1, gt=0, le=MAX_GPUS)
    algorithm: Algorithm = Algorithm.SFT
    precision: Precision = "bf16-amp"
    optimizer: Optimizer = "adamw"
    optimizer_implementation: OptimizerImplementation | None = Field(
        default=None, description="AdamW's implementation; default: the one the engine uses on the device."
    )
    zero_stage: int = Field(default=0, ge=0, le=3, description="ZeRO / FSDP sharding stage.")
    shard_size: int | None = Field(
        default=None, gt=0, le=MAX_GPUS, description="HSDP: shard within groups of this size."
    )
    offload_optimizer: bool = False
    offload_params: bool = False
    gradient_checkpointing: bool = False
    attention: Attention = "flash"
    lora_rank: int = Field(default=0, ge=0, le=1024)
    lora_dropout: float = Field(default=0.05, ge=0, lt=1, description="LoRA dropout (the platform's default).")
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


# The fused LM head's tile (trl/kernels/chunked_logprob.py: TOKEN_CHUNK_SIZE × chunk_size).
FUSED_HEAD_TILE = (4096, 32768)
# Without Triton (CPU, MPS) the tile is folded by torch ops (`_backward_tile`): its scaled copies, log-probabilities,
# probabilities, the target mask and the gradient, about eight tile-sized fp32 tensors alive at once; 7.4 measured
# on the CPU (docs/benchmarks.md), where it makes TRL's step hold more than a plain loop's at small vocabularies.
FUSED_HEAD_TORCH_TEMPORARIES = 7.4


class Step:
    """The arithmetic of one training step of `model` on one GPU, as `request.engine` runs it."""

    def __init__(self, model: ModelSpec, request: EstimateRequest, gpu: Gpu):
        self.m, self.r, self.gpu = model, request, gpu
        self.profile = profile = step_profile(request.engine)
        # bf16-amp is mixed precision: FSDP keeps 2-byte weights for compute (ZeRO's accounting), a PyTorch loop
        # keeps fp32 weights and casts them under autocast.
        self.autocast = request.precision == "bf16-amp" and profile.fp32_weights_under_amp
        self.element = 4 if request.precision == "fp32" else 2  # bytes of an activation
        self.states = states = "fp32" if self.autocast else request.precision
        self.lora = request.lora_rank > 0
        # peft keeps the adapters in fp32 whatever the base model's dtype (get_peft_model's autocast_adapter_dtype).
        self.weight_bytes, self.grad_bytes = _WEIGHT_GRAD_BYTES[states]
        if self.lora:
            self.grad_bytes = 4
        self.optimizer_bytes, self.optimizer_what = _OPTIMIZER_BYTES[
            ("fp32" if self.lora else states, request.optimizer)
        ]
        if self.autocast and not self.lora:
            self.optimizer_what += "; the fp32 weights are the master copy"
        self.tokens = request.micro_batch * request.seq_len * (2 if request.algorithm == Algorithm.DPO else 1)
        self.trainable = (
            model.lora_params(request.lora_rank, request.lora_targets) if self.lora else model.num_parameters
        )
        self.fused_head = profile.fused_lm_head

    @property
    def optimizer_implementation(self) -> str:
        """What the engine runs: TRL takes transformers' default, `adamw_torch_fused` (torch ≥ 2.8), on every
        device; verl's FSDP workers and a plain loop build `torch.optim.AdamW` with PyTorch's default, foreach
        when every tensor is on CUDA and one tensor at a time elsewhere."""
        if self.r.optimizer_implementation is not None:
            return self.r.optimizer_implementation
        if self.profile.fused_optimizer:
            return "fused"
        return "foreach" if self.gpu.kind == "cuda" else "for-loop"

    # ---- activations, bytes per token --------------------------------------------------------------

    def layer_saved_per_token(self) -> int:
        m, e = self.m, self.element
        targets = set(self.r.lora_targets) if self.lora else set(m.linear_shapes())
        # peft keeps adapters in fp32 (get_peft_model's autocast_adapter_dtype) and casts each targeted
        # projection's input to fp32, and drops it out, for that adapter alone: one copy (and a 1-byte dropout
        # mask) per adapter, where projections sharing an input otherwise share what they keep. The copy an
        # adapter keeps is bf16 where its matmul runs in bf16: under autocast (transformers' Trainer with bf16,
        # so TRL; amp) or FSDP's bf16 compute (verl); fp32 in a plain bf16 loop.
        dropout = self.r.lora_dropout > 0
        adapter_copies = self.lora and (dropout or e != 4)
        adapter_bytes = 4 if e == 4 or not (self.profile.bf16_compute or self.autocast) else 2

        def needs_input(*modules: str) -> bool:  # a frozen linear needs no input to pass gradients back
            return not adapter_copies and bool(targets & set(modules))

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
        if adapter_copies:
            saved += sum(m.linear_shapes()[t][0] for t in targets) * (adapter_bytes + dropout)
        if self.lora:
            saved += len(targets) * self.r.lora_rank * adapter_bytes  # each adapter's rank-r output
        return saved

    def layer_backward_workspace_per_token(self) -> int:
        m, e = self.m, self.element
        widest = 3 * m.intermediate_size
        if self.r.attention == "eager":
            widest = max(widest, 2 * m.num_heads * self.r.seq_len)
        return widest * e

    def autocast_weight_copies(self) -> int:
        """Autocast casts each fp32 weight to bf16 for its matmul and autograd keeps the copy until that layer's
        backward; with checkpointing only the LM head's copy outlives a layer's recomputation."""
        if not self.autocast or self.lora:
            return 0  # a frozen weight's copy is not saved: no weight gradient needs it
        if self.r.gradient_checkpointing:
            return self.m.vocab_size * self.m.hidden_size * 2
        return self.m.num_parameters * 2

    def head_saved(self) -> int:
        """What the loss keeps for backward. Full logits: the final norm and the fp32 log-softmax (bf16 logits
        are upcast first; the copy is not kept). TRL's fused head: the final norm, a copy of the hidden states
        it scores and a few fp32 numbers per token (log-sum-exp, log-probability, entropy, top-1 flag)."""
        h = self.m.hidden_size
        if self.fused_head:
            return (12 * h + self.element * h + 16) * self.tokens
        return (12 * h + 4 * self.m.vocab_size) * self.tokens

    def head_backward_workspace(self) -> int:
        """Full logits: gradients of the log-probabilities and of the logits, both fp32 (the bf16 cast back comes
        after the first is freed). TRL's fused
        head: fp32 accumulators of the hidden states' and (full fine-tuning) the LM head's gradients, their casts
        to the weights' dtype, and the projection tile (with its fp32 temporaries where Triton is absent)."""
        m, e = self.m, self.element
        if not self.fused_head:
            return m.vocab_size * 8 * self.tokens
        hidden = m.hidden_size * (4 + e) * self.tokens
        cast = self.weight_bytes if self.weight_bytes < 4 else 0  # fp32 accumulators need no cast to fp32
        head_weight = 0 if self.lora else m.vocab_size * m.hidden_size * (4 + cast)
        rows, columns = min(self.tokens, FUSED_HEAD_TILE[0]), min(m.vocab_size, FUSED_HEAD_TILE[1])
        tile = rows * FUSED_HEAD_TILE[1] * e  # allocated full width whatever the vocabulary
        if self.gpu.kind != "cuda":
            tile += int(FUSED_HEAD_TORCH_TEMPORARIES * rows * columns * 4)
        return hidden + head_weight + tile

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
        copies = self.autocast_weight_copies()
        if self.r.gradient_checkpointing:
            kept = m.num_layers * m.hidden_size * self.element * tokens + copies  # each layer's input
            recomputed = layer_saved  # one layer at a time
            at_head = kept + self.head_saved() + self.head_backward_workspace()
            in_layers = kept + recomputed + workspace + self.grad_of(m.lm_head_params)
            candidates = [(at_head, "start of backward (loss gradients)"), (in_layers, "recomputing a layer")]
        else:
            remaining = m.num_layers * layer_saved + copies
            at_head = remaining + self.head_saved() + self.head_backward_workspace()
            candidates = [(at_head, "start of backward (loss gradients)")]
            grads = self.grad_of(m.lm_head_params)
            layer_copies = copies // m.num_layers if copies else 0
            for index in range(m.num_layers):
                candidates.append((remaining + grads + workspace, f"backward of layer {m.num_layers - index}"))
                remaining -= layer_saved + layer_copies
                grads += self.grad_of(m.layer_params)
        position = self.r.seq_len * m.head_dim * 2 * self.element  # rotary cos/sin, shared by all layers
        peak, where = max(candidates, key=lambda c: c[0])
        return peak + position, where

    def optimizer_step_workspace(self) -> int:
        """Temporaries of the optimizer step. Foreach AdamW takes the square root of all second moments at once
        (one copy of them, in their dtype); the per-tensor loop needs two copies of the largest tensor; the fused
        kernel, SGD and bitsandbytes' 8-bit AdamW (block-wise, in place) none."""
        if self.r.optimizer != "adamw" or self.r.offload_optimizer:
            return 0
        moment = 2 if self.states == "bf16" and not self.lora else 4
        if self.optimizer_implementation == "foreach":
            shard = self.r.shard_degree if self.r.zero_stage >= 1 else 1
            return moment * self.trainable // shard
        if self.optimizer_implementation == "for-loop":
            return 2 * moment * (self.m.largest_module_params if not self.lora else 0)
        return 0

    def generation_beyond_states(self) -> int:
        """TRL's GRPO generates with the policy itself (`model.generate`, no vLLM): the KV cache of every rollout
        the GPU generates at once, while the gradients of the last step are freed (set to None)."""
        if self.profile.rollout != "policy" or self.r.algorithm not in RL_ALGORITHMS:
            return 0
        sequences = (self.r.prompts_per_gpu or self.r.micro_batch) * self.r.rollout_n
        last_logits = sequences * self.m.vocab_size * 4 * 2  # the next token's fp32 logits and probabilities
        return _kv_cache_needed(self.m, self.r, self.element) + last_logits


def estimate(model: ModelSpec, gpu: Gpu, request: EstimateRequest, reward_model: ModelSpec | None = None) -> Estimate:
    step = Step(model, request, gpu)
    r, d = request, request.shard_degree
    terms: list[Term] = []
    notes: list[str] = []
    problems: list[str] = []
    cpu_offload = 0
    P, trainable = model.num_parameters, step.trainable
    dtype = {2: "bf16", 4: "fp32"}

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
        explanation = (
            f"{dtype[step.weight_bytes]} weights"
            + (" (autocast computes in bf16 from them)" if step.autocast else "")
            + (", sharded by ZeRO-3/FSDP" if weight_shard > 1 else ", one full copy per GPU")
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
            (
                f"LoRA: only the adapters (fp32, peft's default) have {dtype[step.grad_bytes]} gradients"
                if step.lora
                else f"one {dtype[step.grad_bytes]} gradient per weight"
            )
            + (", sharded (ZeRO-2+)" if grad_shard > 1 else "")
            + (", offloaded with the parameters" if r.offload_params else ""),
        )  # fmt: skip
    )

    per_param, what = step.optimizer_bytes, step.optimizer_what
    implementation = (
        f"{step.optimizer_implementation} AdamW"
        if r.optimizer == "adamw"
        else {"adamw8bit": "bitsandbytes", "sgd": "SGD"}[r.optimizer]
    )
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
                f"{r.optimizer} ({implementation}, {step.profile.optimizer}): {what}"
                + (", sharded (ZeRO-1+)" if opt_shard > 1 else ""),
            )
        )

    # ---- activations: the largest of the backward pass, the optimizer step and generation -----------
    backward, where = step.backward_peak_beyond_states()
    phases = [
        (backward - gradients, where),
        (step.optimizer_step_workspace(), "optimizer step"),
        (step.generation_beyond_states() - gradients, "generation"),
    ]
    activations, peak_phase = max(phases, key=lambda phase: phase[0])
    activations = max(activations, 0)
    if peak_phase == "optimizer step":
        terms.append(
            Term(
                "optimizer_workspace",
                "activations",
                activations,
                "temporaries of the optimizer step",
                f"the optimizer step is the peak: all gradients are alive and {implementation} makes temporaries "
                "(foreach: a copy of the second moments; a fused kernel has none); activations are freed by then",
            )
        )
    elif peak_phase == "generation":
        terms.append(
            Term(
                "generation",
                "activations",
                activations,
                "KV cache of the rollouts generated at once + last-token logits",
                "TRL generates with the policy itself (model.generate, no vLLM); the last step's gradients are "
                "freed by then",
            )
        )
    else:
        terms.append(
            Term(
                "activations",
                "activations",
                activations,
                f"{step.tokens:,} tokens × saved bytes/token + workspace, at the {peak_phase}",
                _activation_explanation(step, peak_phase),
            )
        )

    # ---- RL / DPO companions ------------------------------------------------------------------------
    if r.uses_reference and not step.lora:
        # As the engine holds it: loaded as the policy is (TRL), or in bf16 (verl's reference worker).
        reference_bytes = step.profile.reference_bytes or step.weight_bytes
        ref = P * reference_bytes // weight_shard
        terms.append(
            Term(
                "reference_model",
                "rl_extra",
                ref,
                f"{P:,} params × {reference_bytes} B" + (f" / {d}" if r.zero_stage == 3 else ""),
                f"frozen {dtype[reference_bytes]} reference model for the KL term / DPO's reference log-probs"
                + (
                    "; its forward runs without gradients inside the step, so it keeps no activations"
                    if step.profile.reference_in_step
                    else ""
                ),
            )  # fmt: skip
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
    if r.algorithm in RL_ALGORITHMS and gpu.kind == "cuda" and step.profile.rollout == "vllm":
        _rollout_reservation(model, gpu, r, activations, terms, notes, problems)
    elif r.algorithm in RL_ALGORITHMS and step.profile.rollout == "policy":
        notes.append(
            f"KV cache for {r.rollout_n} responses × {r.prompts_per_gpu or r.micro_batch} prompts of {r.seq_len} "
            f"tokens: {_gib(_kv_cache_needed(model, r, step.element))}, generated by the policy itself"
        )

    # ---- overhead -----------------------------------------------------------------------------------
    subtotal = sum(t.bytes for t in terms)
    if gpu.kind == "cuda":
        overhead = CUDA_CONTEXT_BYTES + int(CUDA_FRAGMENTATION * subtotal)
        formula = f"{CUDA_CONTEXT_BYTES / GiB:.1f} GiB + {CUDA_FRAGMENTATION:.0%} of the rest"
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


def _rollout_reservation(
    model: ModelSpec, gpu: Gpu, r: EstimateRequest, activations: int, terms: list[Term], notes: list[str],
    problems: list[str],
) -> None:  # fmt: skip
    """verl's colocated vLLM: its share of the GPU, its weights and the KV cache it needs."""
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
    vllm_weights = model.num_parameters * 2 // r.num_gpus  # its own bf16 copy, tensor-parallel over the node's GPUs
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


def _activation_explanation(step: Step, where: str) -> str:
    parts = [
        f"{step.layer_saved_per_token():,} B/token saved per layer",
        "eager attention keeps the s×s scores"
        if step.r.attention == "eager"
        else f"{step.r.attention} attention keeps no s×s scores",
        "TRL's fused LM head scores the labels in 4,096 × 32,768 tiles and never builds the logits "
        "(entropy and token accuracy come out of the same tiles)"
        if step.fused_head
        else "the loss upcasts the whole logits to fp32 (forward with labels)",
    ]
    if step.autocast:
        parts.append("autocast keeps a bf16 copy of each weight for its backward")
    if step.r.gradient_checkpointing:
        parts.append("gradient checkpointing keeps only each layer's input and recomputes one layer at a time")
    parts.append(f"peak at the {where}")
    return "; ".join(parts)


def _kv_cache_needed(model: ModelSpec, request: EstimateRequest, element: int = 2) -> int:
    sequences = (request.prompts_per_gpu or request.micro_batch) * request.rollout_n
    return 2 * model.num_layers * model.kv_dim * element * request.seq_len * sequences
