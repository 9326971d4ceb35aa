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
  precision does, memory-wise); fp32 is fp32. Where Triton is absent (CPU, MPS) its SFT projects only the
  trained positions (engines/trl/lm_head.py: the compact head, whose fp32 probabilities are kept), and its SFT
  micro-batch is one pack of micro_batch × mean sample tokens (a longer sample alone) where the job packs
  (engines/trl/packing.py; compute/lengths.py), with the pack's [T, T] mask for SDPA and eager attention;
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
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from training_platform.common.text import Text
from training_platform.compute.gpus import GiB, Gpu
from training_platform.compute.lengths import SampleLengths, longest_tokens, pack_tokens
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
from training_platform.engines.registry import engine_names, get_engine

Precision = Literal["bf16-amp", "bf16", "fp32"]
Optimizer = Literal["adamw", "adamw8bit", "sgd"]
# PyTorch's three AdamW implementations: one kernel over all tensors, one op per group of tensors (its
# temporaries span every tensor), one tensor at a time.
OptimizerImplementation = Literal["fused", "foreach", "for-loop"]
Attention = Literal["flash", "sdpa", "eager"]
PLAIN = "plain"  # a plain PyTorch loop, the benchmarks' baseline (PLAIN_STEP below)
EngineName = Literal[(*engine_names(), PLAIN)]
ALL_LINEARS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]

# Bytes per parameter: (weights, gradients) by precision; optimizer states per trainable parameter.
# bf16-amp follows the ZeRO paper: 2-byte weights and gradients, fp32 master copy inside the optimizer.
_WEIGHT_GRAD_BYTES = {"bf16-amp": (2, 2), "bf16": (2, 2), "fp32": (4, 4)}
_OPTIMIZER_BYTES = {
    ("bf16-amp", "adamw"): (12, Text.of("compute.states.amp_adamw")),
    ("bf16-amp", "adamw8bit"): (6, Text.of("compute.states.amp_adamw8bit")),
    ("bf16-amp", "sgd"): (8, Text.of("compute.states.amp_sgd")),
    ("bf16", "adamw"): (4, Text.of("compute.states.two_moments", dtype="bf16", sizes="2 + 2")),
    ("bf16", "adamw8bit"): (2, Text.of("compute.states.two_moments", dtype="8-bit", sizes="1 + 1")),
    ("bf16", "sgd"): (2, Text.of("compute.states.momentum", dtype="bf16")),
    ("fp32", "adamw"): (8, Text.of("compute.states.two_moments", dtype="fp32", sizes="4 + 4")),
    ("fp32", "adamw8bit"): (2, Text.of("compute.states.two_moments", dtype="8-bit", sizes="1 + 1")),
    ("fp32", "sgd"): (4, Text.of("compute.states.momentum", dtype="fp32")),
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
    return PLAIN_STEP if engine == PLAIN else get_engine(engine).capabilities.step


# The request's RAM of one host, which the estimate and the recommendation both take.
HostMemoryGiB = Annotated[
    float | None,
    Field(
        gt=0,
        le=2**30,
        description="RAM of one host, shared by the job's GPUs on it (at most 8), for offloading (default: the GPU "
        "class's typical machine).",
    ),
]


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
    host_memory_gib: HostMemoryGiB = None
    packing: bool | None = Field(
        default=None,
        description="SFT: samples packed into one sequence of micro_batch × mean sample tokens (a longer sample "
        "alone) per micro-batch (a job's params.packing); unset: packed where the engine packs, as a job leaves it.",
    )
    sample_lengths: SampleLengths | None = Field(
        default=None,
        description="The training data's sample lengths (its statistics): packing's budget and the padding of "
        "padded micro-batches; without them every sample counts as seq_len tokens.",
    )

    @model_validator(mode="after")
    def _sharding(self) -> "EstimateRequest":
        if self.shard_size is not None and (self.shard_size > self.num_gpus or self.num_gpus % self.shard_size):
            raise ValueError(f"shard_size {self.shard_size} must divide num_gpus {self.num_gpus}")
        if self.offload_params and self.zero_stage != 3:
            raise ValueError("offload_params needs zero_stage 3 (parameters are only offloadable when sharded)")
        if self.packing and not self.engine_packs:
            raise ValueError(
                f"packing: the {self.engine} engine does not pack {self.algorithm.value.upper()} samples; "
                "leave it unset or false"
            )
        return self

    @property
    def engine_packs(self) -> bool:
        """Whether the engine packs this run's samples (SFT on an engine that packs)."""
        return self.algorithm == Algorithm.SFT and step_profile(self.engine).packs_samples

    @property
    def packed(self) -> bool:
        """Whether a micro-batch is one packed sequence: as asked, else wherever the engine packs."""
        return self.engine_packs if self.packing is None else self.packing

    @property
    def rows_per_sample(self) -> int:
        """Padded rows one sample takes: DPO's pair two (chosen and rejected), others one."""
        return 2 if self.algorithm == Algorithm.DPO else 1

    @property
    def sequence_tokens(self) -> int:
        """Tokens of one sequence at the largest micro-batch: a pack's budget, or the longest padded row."""
        if self.packed:
            return pack_tokens(self.micro_batch, self.seq_len, self.sample_lengths)
        return longest_tokens(self.seq_len, self.sample_lengths)

    @property
    def sequences(self) -> int:
        """Sequences of one micro-batch: one pack, or micro_batch rows (DPO's pairs two each)."""
        if self.packed:
            return 1
        return self.micro_batch * self.rows_per_sample

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
    explanation: Text


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
    notes: list[Text] = field(default_factory=list)
    problems: list[Text] = field(default_factory=list)  # reasons it cannot run however much memory is left

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


def _gib_number(value: float) -> str:
    """A size in GiB as the texts' parameters carry it (their templates say the unit)."""
    return f"{value / GiB:.2f}"


def phase_text(peak_phase: str) -> Text:
    """The peak phase of a step (Estimate.peak_phase), in words."""
    if peak_phase.startswith(LAYER_BACKWARD):
        return Text.of("compute.phase.layer", layer=peak_phase.removeprefix(LAYER_BACKWARD))
    return Text.of(_PHASE_CODES[peak_phase])


# The fused LM head's tile (trl/kernels/chunked_logprob.py: TOKEN_CHUNK_SIZE × chunk_size).
FUSED_HEAD_TILE = (4096, 32768)
# Without Triton (CPU, MPS) the tile is folded by torch ops (`_backward_tile`): its scaled copies, log-probabilities,
# probabilities, the target mask and the gradient, about eight tile-sized fp32 tensors alive at once; 7.4 measured
# on the CPU (docs/benchmarks.md), where it makes TRL's step hold more than a plain loop's at small vocabularies.
FUSED_HEAD_TORCH_TEMPORARIES = 7.4
# The compact head (engines/trl/lm_head.py, TRL's SFT without Triton) keeps the fp32 probabilities of the trained
# positions for backward; at its peak, the end of its forward pass, the logits and the entropy's product are two more
# [trained tokens, vocabulary] fp32 tensors (in backward, the logits' gradient is one); 2.25 fitted to the CPU rows
# of benchmarks/compute/run.py (docs/benchmarks.md), where 3.0-3.8 logits-sized tensors were measured in all.
COMPACT_HEAD_TEMPORARIES = 2.25


class Step:
    """The arithmetic of one training step of `model` on one GPU, as `request.engine` runs it."""

    def __init__(self, model: ModelSpec, request: EstimateRequest, gpu: Gpu):
        self.model, self.request, self.gpu = model, request, gpu
        self.profile = profile = step_profile(request.engine)
        # bf16-amp is mixed precision: FSDP keeps 2-byte weights for compute (ZeRO's accounting), a PyTorch loop
        # keeps fp32 weights and casts them under autocast.
        self.autocast = request.precision == "bf16-amp" and profile.fp32_weights_under_amp
        self.element = 4 if request.precision == "fp32" else 2  # bytes of an activation
        self.states_precision = states_precision = "fp32" if self.autocast else request.precision
        self.lora = request.lora_rank > 0
        # peft keeps the adapters in fp32 whatever the base model's dtype (get_peft_model's autocast_adapter_dtype).
        self.weight_bytes, self.grad_bytes = _WEIGHT_GRAD_BYTES[states_precision]
        if self.lora:
            self.grad_bytes = 4
        self.optimizer_bytes, self.optimizer_contents = _OPTIMIZER_BYTES[
            ("fp32" if self.lora else states_precision, request.optimizer)
        ]
        if self.autocast and not self.lora:
            self.optimizer_contents = Text.join(self.optimizer_contents, Text.of("compute.term.master_copy"))
        self.sequence = request.sequence_tokens  # what attention spans: a pack, or a padded row
        self.tokens = request.sequences * self.sequence
        self.trainable = (
            model.lora_params(request.lora_rank, request.lora_targets) if self.lora else model.num_parameters
        )
        self.fused_head = profile.fused_lm_head
        # Without Triton (CPU, MPS) the TRL engine's SFT projects only the trained positions (engines/trl/lm_head.py).
        self.compact_head = self.fused_head and request.algorithm == Algorithm.SFT and gpu.kind != "cuda"

    @property
    def optimizer_implementation(self) -> str:
        """What the engine runs: TRL takes transformers' default, `adamw_torch_fused` (torch ≥ 2.8), on every
        device; verl's FSDP workers and a plain loop build `torch.optim.AdamW` with PyTorch's default, foreach
        when every tensor is on CUDA and one tensor at a time elsewhere."""
        if self.request.optimizer_implementation is not None:
            return self.request.optimizer_implementation
        if self.profile.fused_optimizer:
            return "fused"
        return "foreach" if self.gpu.kind == "cuda" else "for-loop"

    @property
    def optimizer_name(self) -> str:
        """The optimizer as the terms name it: AdamW's implementation, bitsandbytes' 8-bit AdamW, or SGD."""
        if self.request.optimizer == "adamw":
            return f"{self.optimizer_implementation} AdamW"
        return {"adamw8bit": "bitsandbytes", "sgd": "SGD"}[self.request.optimizer]

    # ---- sharding of the model states over the data-parallel group, by ZeRO / FSDP stage -------------

    @property
    def weight_shards(self) -> int:
        """GPUs the weights are spread over: the shard group from ZeRO-3 (FSDP's full sharding), else 1."""
        return self.request.shard_degree if self.request.zero_stage == 3 else 1

    @property
    def gradient_shards(self) -> int:
        """GPUs the gradients are spread over: the shard group from ZeRO-2, else 1."""
        return self.request.shard_degree if self.request.zero_stage >= 2 else 1

    @property
    def optimizer_shards(self) -> int:
        """GPUs the optimizer states are spread over: the shard group from ZeRO-1, else 1."""
        return self.request.shard_degree if self.request.zero_stage >= 1 else 1

    # ---- activations, bytes per token --------------------------------------------------------------

    def layer_saved_per_token(self) -> int:
        model, element = self.model, self.element
        targets = set(self.request.lora_targets) if self.lora else set(model.linear_shapes())
        # peft keeps adapters in fp32 (get_peft_model's autocast_adapter_dtype) and casts each targeted
        # projection's input to fp32, and drops it out, for that adapter alone: one copy (and a 1-byte dropout
        # mask) per adapter, where projections sharing an input otherwise share what they keep. The copy an
        # adapter keeps is bf16 where its matmul runs in bf16: under autocast (transformers' Trainer with bf16,
        # so TRL; amp) or FSDP's bf16 compute (verl); fp32 in a plain bf16 loop.
        dropout = self.request.lora_dropout > 0
        adapter_copies = self.lora and (dropout or element != 4)
        adapter_bytes = 4 if element == 4 or not (self.profile.bf16_compute or self.autocast) else 2

        def needs_input(*modules: str) -> bool:  # a frozen linear needs no input to pass gradients back
            return not adapter_copies and bool(targets & set(modules))

        # An RMSNorm keeps its fp32 input (and, when its weight trains, its normalised value): 4 or 8 bytes
        # per hidden unit; its output is kept when a following projection needs its input.
        norm = (8 if not self.lora else 4) * model.hidden_size
        saved = 2 * norm
        projection_inputs = needs_input("q_proj", "k_proj", "v_proj") + needs_input("gate_proj", "up_proj")
        saved += model.hidden_size * element * projection_inputs
        if self.request.attention == "eager":
            # fp32 softmax (+ its bf16 copy)
            scores = model.num_heads * self.sequence * (4 if element == 4 else 6)
            saved += 3 * model.q_dim * element + scores  # q, and k and v repeated to every head
            saved += model.q_dim * element * needs_input("o_proj")  # the heads' output, re-laid out for o_proj
        else:
            # q, k, v, output, log-sum-exp
            saved += (2 * model.q_dim + 2 * model.kv_dim) * element + 4 * model.num_heads
        saved += 3 * model.intermediate_size * element  # gate, its SiLU, up
        saved += model.intermediate_size * element * needs_input("down_proj")  # their product, down_proj's input
        if adapter_copies:
            saved += sum(model.linear_shapes()[target][0] for target in targets) * (adapter_bytes + dropout)
        if self.lora:
            saved += len(targets) * self.request.lora_rank * adapter_bytes  # each adapter's rank-r output
        return saved

    def layer_backward_workspace_per_token(self) -> int:
        model = self.model
        widest = 3 * model.intermediate_size
        if self.request.attention == "eager":
            widest = max(widest, 2 * model.num_heads * self.sequence)
        return widest * self.element

    def autocast_weight_copies(self) -> int:
        """Autocast casts each fp32 weight to bf16 for its matmul and autograd keeps the copy until that layer's
        backward; with checkpointing only the LM head's copy outlives a layer's recomputation."""
        if not self.autocast or self.lora:
            return 0  # a frozen weight's copy is not saved: no weight gradient needs it
        if self.request.gradient_checkpointing:
            return self.model.vocab_size * self.model.hidden_size * 2
        return self.model.num_parameters * 2

    def head_saved(self) -> int:
        """What the loss keeps for backward. Full logits: the final norm and the fp32 log-softmax (bf16 logits
        are upcast first; the copy is not kept). TRL's fused head: the final norm, a copy of the hidden states
        it scores and a few fp32 numbers per token (log-sum-exp, log-probability, entropy, top-1 flag). The compact
        head: the final norm, the trained positions' hidden states and their fp32 probabilities (every token counted
        as trained: the estimate does not know the loss policy's share)."""
        hidden_size = self.model.hidden_size
        if self.compact_head:
            return (12 * hidden_size + self.element * hidden_size + 4 * self.model.vocab_size) * self.tokens
        if self.fused_head:
            return (12 * hidden_size + self.element * hidden_size + 16) * self.tokens
        return (12 * hidden_size + 4 * self.model.vocab_size) * self.tokens

    def head_backward_workspace(self) -> int:
        """Full logits: gradients of the log-probabilities and of the logits, both fp32 (the bf16 cast back comes
        after the first is freed). TRL's fused
        head: fp32 accumulators of the hidden states' and (full fine-tuning) the LM head's gradients, their casts
        to the weights' dtype, and the projection tile (with its fp32 temporaries where Triton is absent)."""
        model, element = self.model, self.element
        if not self.fused_head:
            return model.vocab_size * 8 * self.tokens
        if self.compact_head:
            return int(COMPACT_HEAD_TEMPORARIES * model.vocab_size * 4 * self.tokens)
        hidden = model.hidden_size * (4 + element) * self.tokens
        cast = self.weight_bytes if self.weight_bytes < 4 else 0  # fp32 accumulators need no cast to fp32
        head_weight = 0 if self.lora else model.vocab_size * model.hidden_size * (4 + cast)
        rows, columns = min(self.tokens, FUSED_HEAD_TILE[0]), min(model.vocab_size, FUSED_HEAD_TILE[1])
        tile = rows * FUSED_HEAD_TILE[1] * element  # allocated full width whatever the vocabulary
        if self.gpu.kind != "cuda":
            tile += int(FUSED_HEAD_TORCH_TEMPORARIES * rows * columns * 4)
        return hidden + head_weight + tile

    # ---- the peak of the backward pass and of the optimizer step -----------------------------------

    def grad_of(self, params: int) -> int:
        """Gradient bytes of `params` trainable parameters kept on this GPU while backward runs."""
        if self.lora:
            return 0  # adapters: small, counted whole in the gradients term
        return params * self.grad_bytes // self.gradient_shards

    def backward_peak_beyond_states(self) -> tuple[int, str]:
        """Largest (activations + gradients so far + workspace) during backward, and where it happens."""
        model, tokens = self.model, self.tokens
        layer_saved = self.layer_saved_per_token() * tokens
        workspace = self.layer_backward_workspace_per_token() * tokens
        copies = self.autocast_weight_copies()
        if self.request.gradient_checkpointing:
            kept = model.num_layers * model.hidden_size * self.element * tokens + copies  # each layer's input
            recomputed = layer_saved  # one layer at a time
            at_head = kept + self.head_saved() + self.head_backward_workspace()
            in_layers = kept + recomputed + workspace + self.grad_of(model.lm_head_params)
            candidates = [(at_head, LOSS_GRADIENTS), (in_layers, RECOMPUTING)]
        else:
            remaining = model.num_layers * layer_saved + copies
            at_head = remaining + self.head_saved() + self.head_backward_workspace()
            candidates = [(at_head, LOSS_GRADIENTS)]
            grads = self.grad_of(model.lm_head_params)
            layer_copies = copies // model.num_layers if copies else 0
            for index in range(model.num_layers):
                candidates.append((remaining + grads + workspace, f"{LAYER_BACKWARD}{model.num_layers - index}"))
                remaining -= layer_saved + layer_copies
                grads += self.grad_of(model.layer_params)
        position = self.sequence * model.head_dim * 2 * self.element  # rotary cos/sin, shared by all layers
        peak, where = max(candidates, key=lambda candidate: candidate[0])
        return peak + position + self.pack_mask(), where

    def pack_mask(self) -> int:
        """A pack's attention mask, shared by every layer for the whole step: transformers builds one [1, 1, T, T]
        block-diagonal mask from the position ids for SDPA (bool) and eager (the compute dtype); flash attention
        takes the sequences' boundaries instead."""
        if not self.request.packed or self.request.attention == "flash":
            return 0
        return self.sequence**2 * (1 if self.request.attention == "sdpa" else self.element)

    def optimizer_step_workspace(self) -> int:
        """Temporaries of the optimizer step. Foreach AdamW takes the square root of all second moments at once
        (one copy of them, in their dtype); the per-tensor loop needs two copies of the largest tensor; the fused
        kernel, SGD and bitsandbytes' 8-bit AdamW (block-wise, in place) none."""
        if self.request.optimizer != "adamw" or self.request.offload_optimizer:
            return 0
        moment = 2 if self.states_precision == "bf16" and not self.lora else 4
        if self.optimizer_implementation == "foreach":
            return moment * self.trainable // self.optimizer_shards
        if self.optimizer_implementation == "for-loop":
            return 2 * moment * (self.model.largest_module_params if not self.lora else 0)
        return 0

    def generation_beyond_states(self) -> int:
        """TRL's GRPO generates with the policy itself (`model.generate`, no vLLM): the KV cache of every rollout
        the GPU generates at once, while the gradients of the last step are freed (set to None)."""
        if self.profile.rollout != "policy" or self.request.algorithm not in RL_ALGORITHMS:
            return 0
        sequences = (self.request.prompts_per_gpu or self.request.micro_batch) * self.request.rollout_n
        last_logits = sequences * self.model.vocab_size * 4 * 2  # the next token's fp32 logits and probabilities
        return _kv_cache_needed(self.model, self.request, self.element) + last_logits


# The peaks of a step (Estimate.peak_phase), and the texts that name them (phase_text).
LOSS_GRADIENTS, RECOMPUTING, LAYER_BACKWARD = (
    "start of backward (loss gradients)",
    "recomputing a layer",
    "backward of layer ",
)
_PHASE_CODES = {
    LOSS_GRADIENTS: "compute.phase.loss_gradients",
    RECOMPUTING: "compute.phase.recompute",
    "optimizer step": "compute.phase.optimizer_step",
    "generation": "compute.phase.generation",
}
# Hosts carry at most this many GPUs (8-GPU nodes): the GPUs of a job on one host share its RAM for offloading.
GPUS_PER_HOST = 8

# The names of the dtypes by their bytes per element, as the terms' explanations say them.
_DTYPE_NAMES = {2: "bf16", 4: "fp32"}


@dataclass
class Phase:
    """What one phase of the step's memory puts on the GPU (its terms, in order), keeps on the CPU by offloading,
    and says of itself: notes, and problems (reasons the step cannot run however much memory is left)."""

    terms: list[Term] = field(default_factory=list)
    notes: list[Text] = field(default_factory=list)
    problems: list[Text] = field(default_factory=list)
    cpu_offload_bytes: int = 0

    @property
    def bytes(self) -> int:
        return sum(term.bytes for term in self.terms)


def estimate(model: ModelSpec, gpu: Gpu, request: EstimateRequest, reward_model: ModelSpec | None = None) -> Estimate:
    """Per-GPU memory of one training step, phase by phase: the model states (weights, gradients, optimizer
    states; what is offloaded goes to the CPU), the activations at the peak of the step, what DPO and RL hold
    beside the policy (reference, critic, reward model, rollouts), the framework's overhead on all of it, and
    whether the host can take what is offloaded."""
    step = Step(model, request, gpu)
    weights = weight_memory(step)
    gradients = gradient_memory(step)
    optimizer = optimizer_memory(step)
    activations, peak_phase = peak_activation_memory(step, gradients_on_gpu=gradients.bytes)
    reference = reference_model_memory(step)
    critic = critic_memory(step)
    reward = reward_model_memory(step, reward_model)
    rollout = rollout_memory(step, activation_bytes=activations.bytes)
    phases = [weights, gradients, optimizer, activations, reference, critic, reward, rollout]
    phases.append(framework_overhead(gpu, subtotal=sum(phase.bytes for phase in phases)))
    cpu_offload_bytes = sum(phase.cpu_offload_bytes for phase in phases)
    phases.append(cpu_offload_check(step, cpu_offload_bytes))
    return Estimate(
        model,
        gpu,
        request,
        terms=[term for phase in phases for term in phase.terms],
        peak_phase=peak_phase,
        trainable_parameters=step.trainable,
        cpu_offload_bytes=cpu_offload_bytes,
        notes=[note for phase in phases for note in phase.notes],
        problems=[problem for phase in phases for problem in phase.problems],
    )


# ---- model states ---------------------------------------------------------------------------------------


def weight_memory(step: Step) -> Phase:
    """The policy's weights: one full copy per GPU, or sharded by ZeRO-3/FSDP with the largest module (and its
    gradient) gathered to compute it; with parameter offloading, on the CPU, with only the current and the
    prefetched module gathered on the GPU."""
    model, request = step.model, step.request
    num_parameters, shard_degree, weight_shards = model.num_parameters, request.shard_degree, step.weight_shards
    if request.offload_params:
        gathered = 2 * model.largest_module_params * step.weight_bytes
        term = Term(
            "weights",
            "weights",
            gathered,
            "2 × largest module × bytes/param",
            Text.of("compute.term.weights_offloaded"),
        )
        return Phase([term], cpu_offload_bytes=num_parameters * step.weight_bytes // shard_degree)
    weights = num_parameters * step.weight_bytes // weight_shards
    sharding = f" / {shard_degree} GPUs" if weight_shards > 1 else ""
    formula = f"{num_parameters:,} params × {step.weight_bytes} B" + sharding
    explanation = Text.join(
        Text.of(
            "compute.term.weights_sharded" if weight_shards > 1 else "compute.term.weights_full",
            dtype=_DTYPE_NAMES[step.weight_bytes],
        ),
        Text.of("compute.term.autocast_weights") if step.autocast else None,
    )
    terms = [Term("weights", "weights", weights, formula, explanation)]
    if request.zero_stage == 3:
        gathered = model.largest_module_params * (step.weight_bytes + step.grad_bytes)
        terms.append(
            Term(
                "gathered_weights",
                "weights",
                gathered,
                "largest module × (weight + gradient bytes)",
                Text.of("compute.term.gathered"),
            )
        )
    return Phase(terms)


def gradient_memory(step: Step) -> Phase:
    """One gradient per trainable parameter (with LoRA, the adapters' alone), sharded by ZeRO-2 and up; with
    parameter offloading, on the CPU with the parameters."""
    request, trainable, gradient_shards = step.request, step.trainable, step.gradient_shards
    gradients = trainable * step.grad_bytes // gradient_shards
    cpu_offload_bytes = 0
    if request.offload_params:
        cpu_offload_bytes, gradients = gradients, 0
    term = Term(
        "gradients",
        "gradients",
        gradients,
        f"{trainable:,} trainable params × {step.grad_bytes} B"
        + (f" / {request.shard_degree}" if gradient_shards > 1 else ""),
        Text.join(
            Text.of(
                "compute.term.gradients_lora" if step.lora else "compute.term.gradients_full",
                dtype=_DTYPE_NAMES[step.grad_bytes],
            ),
            Text.of("compute.term.gradients_sharded") if gradient_shards > 1 else None,
            Text.of("compute.term.gradients_offloaded") if request.offload_params else None,
        ),
    )
    return Phase([term], cpu_offload_bytes=cpu_offload_bytes)


def optimizer_memory(step: Step) -> Phase:
    """The optimizer's states per trainable parameter (by precision and optimizer), sharded by ZeRO-1 and up; with
    optimizer offloading, on the CPU."""
    request, trainable, optimizer_shards = step.request, step.trainable, step.optimizer_shards
    bytes_per_param, contents = step.optimizer_bytes, step.optimizer_contents
    optimizer = trainable * bytes_per_param // optimizer_shards
    if request.offload_optimizer:
        explanation = Text.of(
            "compute.term.optimizer_offloaded", optimizer=request.optimizer, contents=contents.as_dict()
        )
        term = Term("optimizer", "optimizer", 0, "offloaded", explanation)
        return Phase([term], cpu_offload_bytes=optimizer)
    term = Term(
        "optimizer",
        "optimizer",
        optimizer,
        f"{trainable:,} × {bytes_per_param} B" + (f" / {request.shard_degree}" if optimizer_shards > 1 else ""),
        Text.join(
            Text.of(
                "compute.term.optimizer",
                optimizer=request.optimizer,
                implementation=step.optimizer_name,
                engine_optimizer=step.profile.optimizer,
                contents=contents.as_dict(),
            ),
            Text.of("compute.term.optimizer_sharded") if optimizer_shards > 1 else None,
        ),
    )
    return Phase([term])


def host_ram(request: EstimateRequest, gpu: Gpu) -> tuple[int, int]:
    """(bytes of RAM of one host, GPUs of the job on it): the request's figure, else the GPU class's typical host;
    the job's GPUs fill hosts of at most GPUS_PER_HOST."""
    host = int(request.host_memory_gib * GiB) if request.host_memory_gib else gpu.host_memory_bytes
    return host, min(request.num_gpus, GPUS_PER_HOST)


def cpu_offload_check(step: Step, cpu_offload_bytes: int) -> Phase:
    """Where the offloaded model states go: only CUDA GPUs offload (DeepSpeed / FSDP), into the RAM of the host,
    which every GPU of the job on that host fills with its share (`cpu_offload_bytes` is one GPU's)."""
    if not cpu_offload_bytes:
        return Phase()
    gpu, phase = step.gpu, Phase()
    if gpu.kind != "cuda":
        phase.problems.append(Text.of("compute.offload_needs_cuda"))
    host, gpus_on_host = host_ram(step.request, gpu)
    needed = cpu_offload_bytes * gpus_on_host
    sizes = dict(
        needed=_gib_number(needed),
        per_gpu=_gib_number(cpu_offload_bytes),
        gpus_on_host=gpus_on_host,
        host=_gib_number(host),
    )
    if needed > host:
        phase.problems.append(Text.of("compute.host_too_small", **sizes))
    else:
        phase.notes.append(Text.of("compute.host_ram", **sizes))
    return phase


# ---- activations: the largest of the backward pass, the optimizer step and generation -------------------


def peak_activation_memory(step: Step, gradients_on_gpu: int) -> tuple[Phase, str]:
    """What the step holds beyond its model states at its peak, and the phase of the step where that is: the
    backward pass (activations, gradients so far and workspaces, less the gradients term), the optimizer step
    (its temporaries) or generation with the policy (the rollouts' KV cache, less the freed gradients)."""
    backward, where = step.backward_peak_beyond_states()
    candidates = [
        (backward - gradients_on_gpu, where),
        (step.optimizer_step_workspace(), "optimizer step"),
        (step.generation_beyond_states() - gradients_on_gpu, "generation"),
    ]
    activations, peak_phase = max(candidates, key=lambda candidate: candidate[0])
    activations = max(activations, 0)
    if peak_phase == "optimizer step":
        term = Term(
            "optimizer_workspace",
            "activations",
            activations,
            "optimizer step workspace",
            Text.of("compute.term.optimizer_workspace", optimizer=step.optimizer_name),
        )
    elif peak_phase == "generation":
        term = Term(
            "generation",
            "activations",
            activations,
            "KV cache × rollouts + last-token logits",
            Text.of("compute.term.generation"),
        )
    else:
        term = Term(
            "activations",
            "activations",
            activations,
            f"{step.tokens:,} tokens × saved bytes/token + workspace",  # where the peak is: the explanation
            _activation_explanation(step, peak_phase),
        )
    return Phase([term]), peak_phase


def _activation_explanation(step: Step, where: str) -> Text:
    attention = step.request.attention
    return Text.join(
        Text.of("compute.term.saved_per_token", bytes=f"{step.layer_saved_per_token():,}"),
        Text.of("compute.term.eager_scores")
        if attention == "eager"
        else Text.of("compute.term.no_scores", attention=attention),
        Text.of("compute.term.packed", tokens=step.sequence) if step.request.packed else None,
        Text.of("compute.term.pack_mask", attention=attention, tokens=step.sequence) if step.pack_mask() else None,
        Text.of(
            "compute.term.compact_head"
            if step.compact_head
            else "compute.term.fused_head"
            if step.fused_head
            else "compute.term.full_logits"
        ),
        Text.of("compute.term.autocast_copy") if step.autocast else None,
        Text.of("compute.term.checkpointing") if step.request.gradient_checkpointing else None,
        Text.of("compute.term.peak_at", phase=phase_text(where).as_dict()),
    )


# ---- RL / DPO companions of the policy --------------------------------------------------------------------


def reference_model_memory(step: Step) -> Phase:
    """DPO's and RL's frozen reference model, as the engine holds it (loaded as the policy is, or in bf16), sharded
    as the weights are; none with LoRA, where the base model with its adapters disabled is the reference."""
    request = step.request
    if not request.uses_reference:
        return Phase()
    if step.lora:
        return Phase(notes=[Text.of("compute.reference_lora")])
    # As the engine holds it: loaded as the policy is (TRL), or in bf16 (verl's reference worker).
    reference_bytes = step.profile.reference_bytes or step.weight_bytes
    num_parameters = step.model.num_parameters
    reference = num_parameters * reference_bytes // step.weight_shards
    term = Term(
        "reference_model",
        "rl_extra",
        reference,
        f"{num_parameters:,} params × {reference_bytes} B"
        + (f" / {request.shard_degree}" if request.zero_stage == 3 else ""),
        Text.join(
            Text.of("compute.term.reference", dtype=_DTYPE_NAMES[reference_bytes]),
            Text.of("compute.term.reference_in_step") if step.profile.reference_in_step else None,
        ),
    )
    return Phase([term])


def critic_memory(step: Step) -> Phase:
    """PPO's critic: a value model of the actor's size, with its own gradients and optimizer states, sharded as the
    optimizer states are."""
    if step.request.algorithm != Algorithm.PPO:
        return Phase()
    bytes_per_param = step.weight_bytes + step.grad_bytes + step.optimizer_bytes
    critic = step.model.num_parameters * bytes_per_param // step.optimizer_shards
    term = Term(
        "critic",
        "rl_extra",
        critic,
        "params × (weight + gradient + optimizer bytes) / shards",
        Text.of("compute.term.critic"),
    )
    return Phase([term])


def reward_model_memory(step: Step, reward_model: ModelSpec | None) -> Phase:
    """PPO's reward model, where one is given: bf16 weights, sharded as the policy's weights are."""
    if step.request.algorithm != Algorithm.PPO or reward_model is None:
        return Phase()
    reward = reward_model.num_parameters * 2 // step.weight_shards
    return Phase(
        [
            Term(
                "reward_model",
                "rl_extra",
                reward,
                f"{reward_model.num_parameters:,} × 2 B",
                Text.of("compute.term.reward_model"),
            )
        ]
    )


def rollout_memory(step: Step, activation_bytes: int) -> Phase:
    """RL's rollouts: a colocated vLLM's reservation on a CUDA GPU (where the engine rolls out with vLLM), or the
    KV cache of an engine that generates with the policy itself (counted in the activations, at generation: a
    note of its size here)."""
    request = step.request
    if request.algorithm not in RL_ALGORITHMS:
        return Phase()
    if step.gpu.kind == "cuda" and step.profile.rollout == "vllm":
        return _vllm_rollout_reservation(step.model, step.gpu, request, activation_bytes)
    if step.profile.rollout == "policy":
        kv_cache = _kv_cache_needed(step.model, request, step.element)
        return Phase(notes=[Text.of("compute.kv_cache_policy", **_rollouts(request), size=_gib_number(kv_cache))])
    return Phase()


def _vllm_rollout_reservation(model: ModelSpec, gpu: Gpu, request: EstimateRequest, activation_bytes: int) -> Phase:
    """verl's colocated vLLM: its share of the GPU, its weights and the KV cache it needs."""
    phase = Phase()
    reservation = int(request.gpu_memory_utilization * gpu.memory_bytes)
    over_activations = max(0, reservation - activation_bytes)
    phase.terms.append(
        Term(
            "rollout_reservation",
            "rl_extra",
            over_activations,
            f"max(0, gpu_memory_utilization {request.gpu_memory_utilization} × {_gib(gpu.memory_bytes)} − activations)",
            Text.of("compute.term.rollout_reservation"),
        )
    )
    needed = _kv_cache_needed(model, request)
    # its own bf16 copy, tensor-parallel over the node's GPUs
    vllm_weights = model.num_parameters * 2 // request.num_gpus
    kv_room = reservation - vllm_weights - VLLM_WORKSPACE_BYTES
    one_sequence = _kv_cache_needed(model, request.model_copy(update={"rollout_n": 1, "prompts_per_gpu": 1}))
    if kv_room < one_sequence:
        phase.problems.append(
            Text.of(
                "compute.vllm_too_small",
                share=_gib_number(reservation),
                weights=_gib_number(vllm_weights),
                tokens=request.seq_len,
                sequence=_gib_number(one_sequence),
            )
        )
    room = _gib_number(max(kv_room, 0))
    phase.notes.append(
        Text.join(
            Text.of("compute.kv_cache_vllm", **_rollouts(request), size=_gib_number(needed), room=room),
            None if needed <= kv_room else Text.of("compute.kv_cache_waves"),
        )
    )
    return phase


def _rollouts(request: EstimateRequest) -> dict[str, int]:
    """What the KV-cache notes say of the rollouts one GPU generates at once."""
    return dict(
        responses=request.rollout_n, prompts=request.prompts_per_gpu or request.micro_batch, tokens=request.seq_len
    )


def _kv_cache_needed(model: ModelSpec, request: EstimateRequest, element: int = 2) -> int:
    sequences = (request.prompts_per_gpu or request.micro_batch) * request.rollout_n
    return 2 * model.num_layers * model.kv_dim * element * request.seq_len * sequences


# ---- overhead -------------------------------------------------------------------------------------------


def framework_overhead(gpu: Gpu, subtotal: int) -> Phase:
    """What the framework holds beside the step's tensors: on CUDA the context and library workspaces plus the
    caching allocator's fragmentation (a share of `subtotal`, every other term); Metal's runtime on MPS; nothing
    counted on the CPU."""
    if gpu.kind == "cuda":
        overhead = CUDA_CONTEXT_BYTES + int(CUDA_FRAGMENTATION * subtotal)
        formula = f"{CUDA_CONTEXT_BYTES / GiB:.1f} GiB + {CUDA_FRAGMENTATION:.0%} of the rest"
        explanation = Text.of("compute.term.overhead_cuda")
    elif gpu.kind == "mps":
        overhead, formula = MPS_OVERHEAD_BYTES, "0.3 GiB"
        explanation = Text.of("compute.term.overhead_mps")
    else:
        overhead, formula = 0, "0"
        explanation = Text.of("compute.term.overhead_cpu")
    return Phase([Term("overhead", "overhead", overhead, formula, explanation)])
