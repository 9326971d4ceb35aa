"""What the TRL engine adds to a run's trainer config on CUDA to train and generate faster, and the notes that say
what it added or why not (the job's events). Pure: the device, the model's type and which packages are installed
are given, so every configuration can be generated and checked without a GPU.

- **Liger kernels** (`use_liger_kernel`, transformers' Trainer applies them to the model when training starts) for
  the model families the platform names: Llama (Llama 3), Mistral, Qwen2 (Qwen2, Qwen2.5) and Qwen3, on CUDA where
  liger-kernel is installed (its kernels are Triton's), for every algorithm. Only the layer kernels (RMSNorm, RoPE,
  SwiGLU): TRL's trainers refuse Liger's fused linear cross-entropy, which would replace the forward they patch
  with their own fused LM head. TRL marks `use_liger_kernel` deprecated in favour of the Hub's kernels; those are
  downloaded from a hub when the model loads, which the platform never reaches.
- **vLLM rollouts** for GRPO and GSPO (`use_vllm`, `vllm_mode="colocate"`) on CUDA where vLLM is installed, instead
  of `model.generate`. Colocated, each training process starts its own vLLM engine on its own GPU (tensor parallel
  1: the whole model on each) and generates its share of the prompts; TRL copies the policy's weights into it
  before each generation. That holds on one GPU and, with several, where each process holds the whole model (DDP);
  a model sharded with FSDP (zero_stage 2 or 3 over several GPUs) was sharded because a whole copy does not fit
  one GPU, so it keeps `model.generate`. The engine takes `VLLM_MEMORY_SHARE` of its GPU's memory (TRL's documented
  default; a job's `vllm_gpu_memory_utilization` engine setting replaces it), sleeps while the model trains (its
  weights and KV cache released, so the training step has about the memory it had with `model.generate`; a
  wake-up per generation is the price), and holds sequences of max_prompt_length + max_response_length tokens (the
  recipe drops longer prompts) rather than the model's whole context, whose KV cache a share may not hold.
  vLLM's server mode stays out: the platform does not connect a job to a server on the network (settings.py refuses
  the server's fields).
- **FlashAttention-2** (the model loaded with `attn_implementation="flash_attention_2"`) for the same families on
  CUDA where flash-attn is installed and the weights are bfloat16 (its kernels take half-precision tensors; fp16
  runs keep float32 weights under an autocast, which the packing check's plain forward would hand it). Packed
  samples are then kept apart by their boundaries (transformers passes the kernel each sample's start from its
  position ids) instead of a block-diagonal mask over the whole pack, which SDPA computes densely: a pack costs
  what its samples cost alone. Elsewhere the model keeps transformers' default, SDPA. No engine setting turns it
  off (TRL's `model_init_kwargs` are refused); `precision: fp16` or `fp32` does.

The job's engine settings always win: a key they set is never replaced, and the note names it. Turning an
acceleration off is `use_liger_kernel: false` or `use_vllm: false` in the job's engine_settings.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from training_platform.common.text import Text
from training_platform.contract.params import RuleRewardParams
from training_platform.contract.run import RunSpec
from training_platform.engines.trl.arguments import fsdp_sharding

# transformers' model_type → the family's name in the notes: the families Liger and FlashAttention-2 are chosen for.
ACCELERATED_FAMILIES = {"llama": "Llama", "mistral": "Mistral", "qwen2": "Qwen2", "qwen3": "Qwen3"}
# Keyword arguments of Liger's apply_liger_kernel_to_<family> (the same for the four families).
LIGER_LAYER_KERNELS = {"rope": True, "rms_norm": True, "swiglu": True, "cross_entropy": False,
                       "fused_linear_cross_entropy": False}  # fmt: skip
VLLM_MEMORY_SHARE = 0.3


@dataclass(frozen=True)
class Acceleration:
    arguments: dict[str, Any] = field(default_factory=dict)  # trainer config fields, none of the job's settings
    notes: list[Text] = field(default_factory=list)


def accelerations(spec: RunSpec, model_type: str, device: str, installed: Callable[[str], bool]) -> Acceleration:
    """The accelerations of a run of `spec` on `device` ("cuda", "mps", "cpu") for a model of transformers'
    `model_type`; `installed(module)` says whether a module can be imported in the training process. Each note is
    one of the engine's texts on its own (the job's events take only those: jobs/supervisor.py engine_notes)."""
    settings = spec.engine_settings
    family = ACCELERATED_FAMILIES.get(model_type)
    liger = _settle("use_liger_kernel", _liger(model_type, device, installed), settings, "trl.liger_absent",
                    lambda _: Text.of("trl.liger", family=family))  # fmt: skip
    if not isinstance(spec.params, RuleRewardParams):  # SFT and DPO generate nothing: no word on vLLM
        return liger
    vllm = _settle("use_vllm", _vllm(spec, device, installed), settings, "trl.vllm_absent", _vllm_note)
    return Acceleration({**liger.arguments, **vllm.arguments}, liger.notes + vllm.notes)


def attention(
    model_type: str, device: str, weights_dtype: str, installed: Callable[[str], bool]
) -> tuple[str | None, Text]:
    """The attention implementation to load the model with (None: transformers' default, SDPA) and the note that
    says which and why; `weights_dtype` is the precision policy's (arguments.py)."""
    if device != "cuda":
        reason = Text.of("trl.reason.no_cuda", device=device)
    elif not installed("flash_attn"):
        reason = Text.of("trl.reason.not_installed", package="flash-attn")
    elif model_type not in ACCELERATED_FAMILIES:
        reason = Text.of("trl.reason.flash_family", model_type=str(model_type))
    elif weights_dtype != "bfloat16":
        reason = Text.of("trl.reason.float32_weights")
    else:
        return "flash_attention_2", Text.of("trl.flash_attention", family=ACCELERATED_FAMILIES[model_type])
    return None, Text.of("trl.flash_attention_absent", reason=reason.as_dict())


def _liger(model_type: str, device: str, installed: Callable[[str], bool]) -> dict[str, Any] | Text:
    """Liger's arguments for the run, or why it has none."""
    if device != "cuda":
        return Text.of("trl.reason.no_cuda", device=device)
    if not installed("liger_kernel"):
        return Text.of("trl.reason.not_installed", package="liger-kernel")
    if model_type not in ACCELERATED_FAMILIES:
        return Text.of("trl.reason.liger_family", model_type=str(model_type))
    return {"use_liger_kernel": True, "liger_kernel_config": dict(LIGER_LAYER_KERNELS)}


def _vllm(spec: RunSpec, device: str, installed: Callable[[str], bool]) -> dict[str, Any] | Text:
    """A colocated vLLM's arguments for an RL run, or why it generates with model.generate."""
    params = spec.params
    if device != "cuda":
        return Text.of("trl.reason.no_cuda", device=device)
    if not installed("vllm"):
        return Text.of("trl.reason.not_installed", package="vllm")
    if fsdp_sharding(params):
        return Text.of("trl.reason.sharded", gpus=params.num_gpus, stage=params.zero_stage)
    return dict(
        use_vllm=True,
        vllm_mode="colocate",
        vllm_tensor_parallel_size=1,
        vllm_gpu_memory_utilization=VLLM_MEMORY_SHARE,
        vllm_enable_sleep_mode=True,
        vllm_max_model_length=params.max_prompt_length + params.max_response_length,
    )


def _settle(
    switch: str,
    chosen: dict[str, Any] | Text,
    settings: dict[str, Any],
    absent: str,
    applied: Callable[[dict[str, Any]], Text],
) -> Acceleration:
    """One acceleration: the platform's arguments (`chosen`, or the reason it has none) less the job's settings.
    `switch` set by the settings decides whether it is on (as TRL reads it: truthy); on, the platform fills in only
    the keys the settings leave out. Noted: `applied` to the values in force and the settings kept, else `absent`
    with the reason."""
    if switch in settings and not settings[switch]:
        reason = Text.of("trl.reason.setting", setting=_setting(switch, settings))
        return Acceleration(notes=[Text.of(absent, reason=reason.as_dict())])
    if isinstance(chosen, Text):
        if switch in settings:  # asked for where the platform would not choose it: left to the job, with a warning
            return Acceleration(notes=[Text.of("trl.setting_against", setting=_setting(switch, settings),
                                               reason=chosen.as_dict())])  # fmt: skip
        return Acceleration(notes=[Text.of(absent, reason=chosen.as_dict())])
    kept = [key for key in chosen if key in settings]
    notes = [applied({**chosen, **{key: settings[key] for key in kept}})]
    if kept:
        notes.append(Text.of("trl.settings_kept", settings=", ".join(_setting(key, settings) for key in kept)))
    return Acceleration({key: value for key, value in chosen.items() if key not in kept}, notes)


def _vllm_note(effective: dict[str, Any]) -> Text:
    tokens = effective["vllm_max_model_length"]
    length = Text.of("trl.vllm_model_length") if tokens is None else Text.of("trl.vllm_tokens", tokens=tokens)
    sleeps = effective["vllm_enable_sleep_mode"]
    memory = Text.of("trl.vllm_memory_released" if sleeps else "trl.vllm_memory_held")
    return Text.of("trl.vllm", share=effective["vllm_gpu_memory_utilization"], memory=memory.as_dict(),
                   length=length.as_dict())  # fmt: skip


def _setting(key: str, settings: dict[str, Any]) -> str:
    """A job's setting as engine_settings writes it (JSON values)."""
    return f"{key}={json.dumps(settings[key])}"
