"""Switched on by PLATFORM_JOB_DIR and PLATFORM_JOB_ID (the job's directory and id): the job's hooks in verl's
training loop. The status file is kept current from verl's tracking calls (verl.utils.tracking.Tracking.log), and a
pause request in control.json makes the trainer end at a step with a checkpoint — the SFT trainer at the step it is
in, the PPO trainer at the step it just logged — through verl's own exit path; the next launch resumes from it
(trainer.resume_mode=auto). verl itself knows nothing of the platform's status file or its pause requests.
"""

import atexit
import os
import sys
import time
from pathlib import Path

import torch

from training_platform.engines.verl.plugin.layer_grad_norms import platform_layer_keys
from training_platform.engines.verl.plugin.patching import after_import, calling_trainer


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


def install_job_hooks(job_dir: Path, job_id: str) -> None:
    # The process the platform launched (`python -m verl.trainer.main_ppo`, or torchrun's ranks of the SFT
    # trainer); sys.argv[0] is still "-m" while `import verl` runs on the way to the module.
    entry = any(argument in ENTRY_MODULES for argument in sys.orig_argv)
    hooks = _JobHooks(job_dir, job_id, entry)

    def hook_tracking(tracking_module) -> None:
        original_log = tracking_module.Tracking.log

        def log(self, data, step, *args, **kwargs):
            if _validation_only(data):
                return original_log(self, data, step, *args, **kwargs)  # verl's validation before training
            data = platform_layer_keys(data)
            trainer = calling_trainer()
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
            trainer = calling_trainer()
            if trainer is not None and hooks.status.total_steps is None:
                hooks.status.total_steps = trainer.total_training_steps
            if trainer is not None and hooks.pause_requested():
                # verl's SFT loop ends a run at `global_step >= total_training_steps`, saving a checkpoint
                # first: making the current step the last is a pause through verl's own code path.
                trainer.total_training_steps = 0
                hooks.pausing = True
            return output

        workers_module.TrainingWorker.train_batch = train_batch

    after_import("verl.utils.tracking", hook_tracking)
    after_import("verl.workers.engine_workers", hook_sft_training)
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


def _pause_rl(trainer, step: int, hooks: _JobHooks) -> None:
    """verl's PPO loop (0.9.1, v1 trainer) runs while `global_steps <= total_training_steps` and counts the
    step up right after logging it: saving this step (unless its save interval just did) and making it the
    last ends the run here, through verl's own exit path."""
    if hooks.saved_step() != step:
        trainer._save_checkpoint()
    trainer.total_training_steps = step
    hooks.status.last_checkpoint_step = step
    hooks.mark_paused()
