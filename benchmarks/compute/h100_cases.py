"""Training runs measured on an NVIDIA H100 80GB HBM3: the ground truth of the memory and speed estimates.

Source: issue 15 / GPU findings, H100, 2026-11-23 (torch 2.11.0+cu130, transformers 5.17.0, peft 0.21.0,
TRL 1.16.0; random weights of each family's published shape). Copied here so that the tests and
docs/benchmarks.md can check the estimates against them.

- Plain loops: `AutoModelForCausalLM.from_config` on CUDA, optional non-reentrant gradient checkpointing,
  optional peft LoRA (alpha 2r, peft's default dropout 0), three steps of forward with labels, backward,
  `torch.optim.AdamW(fused=True)`, `zero_grad(set_to_none=True)`. bf16: weights, gradients and AdamW states in
  bf16; amp (the estimate's bf16-amp): fp32 weights, gradients and states, forward under autocast(bf16).
  Memory: torch.cuda.max_memory_allocated / max_memory_reserved; the CUDA context added 0.60 GiB in every
  case. The band a correct estimate (which counts the context) falls in is [allocated + 0.60, reserved + 0.60].
- The platform's TRL engine (`python -m training_platform.engines.trl --config run_config.json`, precision
  auto, so bf16), SFT samples of ~2,000 tokens, max_length 2048, micro batch 4, no accumulation: its metric
  gpu_memory_allocated (max_memory_allocated) only, so its band is allocated + 0.60 alone.
"""

from dataclasses import dataclass, field

from training_platform.compute.memory import ALL_LINEARS, EstimateRequest

CUDA_CONTEXT_GIB = 0.60
QKVO = ["q_proj", "k_proj", "v_proj", "o_proj"]


@dataclass(frozen=True)
class Case:
    tag: str
    model: str  # a preset of training_platform/compute/model.py
    request: EstimateRequest
    allocated_gib: float | None  # None: out of memory
    reserved_gib: float | None = None  # None: not measured (the engine's metric is the allocated peak)
    tokens_per_second: float | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def fits(self) -> bool:
        return self.allocated_gib is not None

    @property
    def band_gib(self) -> tuple[float, float]:
        """[allocated, reserved] + the CUDA context: where the whole of a correct estimate lands."""
        assert self.allocated_gib is not None, f"{self.tag} ran out of memory: it has no band"
        reserved = self.reserved_gib if self.reserved_gib is not None else self.allocated_gib
        return self.allocated_gib + CUDA_CONTEXT_GIB, reserved + CUDA_CONTEXT_GIB


def _plain(**fields) -> EstimateRequest:
    return EstimateRequest(engine="plain", optimizer_implementation="fused", attention="sdpa", lora_dropout=0.0,
                           **fields)  # fmt: skip


def _engine(**fields) -> EstimateRequest:
    # Measured before the engine packed SFT samples: micro-batches of 4 padded rows.
    return EstimateRequest(engine="trl", precision="bf16", attention="sdpa", packing=False, **fields)


CASES = [
    Case("q05-bf16-s2048-b4", "Qwen2.5-0.5B", _plain(precision="bf16", seq_len=2048, micro_batch=4),
         27.31, 32.51, 66_587),
    Case("q05-bf16-s2048-b4-gc", "Qwen2.5-0.5B",
         _plain(precision="bf16", seq_len=2048, micro_batch=4, gradient_checkpointing=True), 17.13, 18.01, 36_704),
    Case("q15-amp-s2048-b4-gc", "Qwen2.5-1.5B",
         _plain(precision="bf16-amp", seq_len=2048, micro_batch=4, gradient_checkpointing=True), 33.29, 41.18,
         25_131),
    Case("q3-lora64qkvo-s4096-b4-gc", "Qwen2.5-3B",
         _plain(precision="bf16", seq_len=4096, micro_batch=4, gradient_checkpointing=True, lora_rank=64,
                lora_targets=QKVO), 36.45, 42.75, 15_586),
    Case("q7-bf16-s1024-b1-gc", "Qwen2.5-7B",
         _plain(precision="bf16", seq_len=1024, micro_batch=1, gradient_checkpointing=True), 56.97, 58.04, 4_681),
    Case("q7-amp-s1024-b1-gc", "Qwen2.5-7B",
         _plain(precision="bf16-amp", seq_len=1024, micro_batch=1, gradient_checkpointing=True), None,
         notes=["out of memory in the first optimizer step (77.0 GiB allocated)"]),
    Case("engine-q05-full-b4", "Qwen2.5-0.5B", _engine(seq_len=2048, micro_batch=4), 15.73,
         tokens_per_second=56_695, notes=["median; steady 66-67k"]),
    Case("engine-q05-full-b4-gc", "Qwen2.5-0.5B", _engine(seq_len=2048, micro_batch=4, gradient_checkpointing=True),
         4.44, tokens_per_second=41_000),
    Case("engine-q15-lora16-b4", "Qwen2.5-1.5B", _engine(seq_len=2048, micro_batch=4, lora_rank=16,
                                                          lora_targets=list(ALL_LINEARS)),
         33.23, tokens_per_second=22_000),
]  # fmt: skip
