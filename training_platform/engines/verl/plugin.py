"""The platform's plugin inside verl's processes, loaded by verl itself (VERL_USE_EXTERNAL_MODULES).

Two parts, each switched on by an environment variable the engine sets:

- VERL_PLATFORM=cpu: a CPU platform. verl 0.9.1 registers only nvidia/huawei/amd platforms and falls back
  to nvidia (NCCL) on a machine without a GPU; this registers "cpu" (gloo, device "cpu", a no-op device
  module) through verl's own PlatformRegistry, and merges the "cpu:gloo,cpu:gloo" backend string verl
  then builds into plain "gloo" (verl-0.9.1-findings §4).
- PLATFORM_JOB_DIR / PLATFORM_JOB_ID: the job's hooks. The status file is kept current from verl's
  tracking calls, and a pause request in control.json makes the SFT trainer end the step it is in as its
  last one — verl then validates, saves the checkpoint and returns by itself; the next launch resumes
  from it (trainer.resume_mode=auto).

Always: verl 0.9.1 takes "TRL is installed" to mean "TRL has AutoModelForCausalLMWithValueHead", which TRL
removed in 1.13 (the platform's TRL engine needs a current TRL), and crashes building any model; its check
is narrowed to what it actually needs.

All of it acts by wrapping verl's functions and classes at run time; verl's source is never changed.
"""

import atexit
import contextlib
import importlib
import os
import sys
import time
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
            return "CPU"

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
    """Status file and pause requests for the verl run of one platform job (rank 0 writes the status)."""

    def __init__(self, job_dir: Path, job_id: str):
        from training_platform.jobs.control import ControlReader
        from training_platform.jobs.layout import JobLayout
        from training_platform.metrics.status import TrainingState, TrainingStatus

        self.layout = JobLayout(job_id, job_dir)
        self.control = ControlReader(self.layout.control_path)
        self.state = TrainingState
        self.status = TrainingStatus(job_id=job_id, status=TrainingState.RUNNING, started_at=time.time())
        self.first_step: tuple[float, int] | None = None
        self.paused = False
        self.saved_step: int | None = None
        self.failed: str | None = None

    def rank(self) -> int:
        return int(os.environ.get("RANK", "0"))

    def write_status(self) -> None:
        from training_platform.metrics.status import write_status

        if self.rank() != 0:
            return
        now = time.time()
        self.status.updated_at = now
        self.status.elapsed_seconds = now - self.status.started_at
        write_status(self.layout.status_path, self.status)

    def on_log(self, step: int, data: dict) -> None:
        if self.first_step is None:
            self.first_step = (time.time(), step)
            self.status.resumed_from_step = step - 1 or None
        self.status.current_step = max(self.status.current_step, step)
        for key in ("train/loss", "actor/loss", "actor/pg_loss"):
            if isinstance(data.get(key), (int, float)):
                self.status.loss = float(data[key])
                break
        for key in ("train/lr", "actor/lr"):
            if isinstance(data.get(key), (int, float)):
                self.status.learning_rate = float(data[key])
        if self.status.total_steps:
            started, first = self.first_step
            done = step - first + 1
            self.status.eta_seconds = (time.time() - started) / done * (self.status.total_steps - step)
        self.write_status()

    def pause_requested(self) -> bool:
        """Every rank must take the same decision, or the checkpoint's collectives would hang."""
        import torch.distributed as dist

        from training_platform.jobs.control import ControlAction

        wanted = self.control.pending_action() == ControlAction.PAUSE if self.rank() == 0 else False
        if dist.is_available() and dist.is_initialized():
            flag = torch.tensor([1 if wanted else 0])
            dist.broadcast(flag, src=0)
            wanted = bool(flag.item())
        return wanted

    def on_saved(self, step: int) -> None:
        self.saved_step = step
        self.status.last_checkpoint_step = step
        self.write_status()

    def finish(self) -> None:
        """At exit: a run ends well only once verl has saved the checkpoint of the step it ends at."""
        ended_at = self.saved_step is not None and self.saved_step >= self.status.current_step
        if self.failed or not ended_at:
            self.status.status = self.state.FAILED
            self.status.message = (
                self.failed or f"verl exited at step {self.status.current_step} without its checkpoint"
            )
        elif self.paused:
            self.status.status = self.state.PAUSED
            self.status.message = f"paused at step {self.status.current_step}"
        else:
            self.status.status = self.state.COMPLETED
            self.status.message = f"completed {self.status.current_step} steps"
            self.status.eta_seconds = 0.0
        self.write_status()


def _install_job_hooks(job_dir: Path, job_id: str) -> None:
    from verl.utils.checkpoint.checkpoint_handler import CheckpointHandler
    from verl.utils.tracking import Tracking
    from verl.workers.engine_workers import TrainingWorker

    hooks = _JobHooks(job_dir, job_id)
    original_log = Tracking.log
    original_train_batch = TrainingWorker.train_batch
    original_save = CheckpointHandler.save_checkpoint

    def save_checkpoint(self, *args, **kwargs):
        result = original_save(self, *args, **kwargs)
        step = kwargs.get("step", args[0] if args else None)
        if step is not None:
            hooks.on_saved(int(step))
        return result

    def log(self, data, step, *args, **kwargs):
        hooks.on_log(step, dict(data))
        return original_log(self, data, step, *args, **kwargs)

    def train_batch(self, *args, **kwargs):
        output = original_train_batch(self, *args, **kwargs)
        trainer = _calling_trainer()
        if trainer is not None and hooks.status.total_steps is None:
            hooks.status.total_steps = trainer.total_training_steps
        if trainer is not None and hooks.pause_requested():
            # verl's SFT loop ends a run at `global_step >= total_training_steps`, saving a checkpoint
            # first: making the current step the last is a pause through verl's own code path.
            trainer.total_training_steps = 0
            hooks.paused = True
        return output

    Tracking.log = log
    TrainingWorker.train_batch = train_batch
    CheckpointHandler.save_checkpoint = save_checkpoint
    previous_hook = sys.excepthook

    def excepthook(kind, value, traceback):
        hooks.failed = f"{kind.__name__}: {value}"
        previous_hook(kind, value, traceback)

    sys.excepthook = excepthook
    atexit.register(hooks.finish)
    hooks.write_status()


def _calling_trainer():
    """The SFT trainer whose fit() loop called train_batch (verl 0.9.1: SFTTrainer.fit → train_batch)."""
    frame = sys._getframe(2)
    while frame is not None:
        candidate = frame.f_locals.get("self")
        if frame.f_code.co_name == "fit" and hasattr(candidate, "total_training_steps"):
            return candidate
        frame = frame.f_back
    return None


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
if os.environ.get("PLATFORM_JOB_DIR") and os.environ.get("PLATFORM_JOB_ID"):
    _install_job_hooks(Path(os.environ["PLATFORM_JOB_DIR"]), os.environ["PLATFORM_JOB_ID"])
