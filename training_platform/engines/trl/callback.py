"""The platform's hook inside a TRL trainer: metrics lines, the status file, pause requests, complete checkpoints."""

import math
import time
from pathlib import Path

from transformers import TrainerCallback

from training_platform.engines.trl.checkpoints import mark_complete
from training_platform.jobs.control import ControlAction, ControlReader
from training_platform.jobs.layout import JobLayout
from training_platform.metrics.canonical import TRL_KEYS
from training_platform.metrics.status import TrainingState, TrainingStatus, write_status
from training_platform.metrics.writer import MetricsWriter

# transformers logs these once, after the last step; they describe the run, not a step.
SUMMARY_KEYS = {"train_runtime", "train_samples_per_second", "train_steps_per_second", "total_flos", "train_loss"}
STATUS_WRITE_INTERVAL_S = 0.5


class PlatformCallback(TrainerCallback):
    def __init__(self, layout: JobLayout, gpu_memory_reader=None):
        self.layout = layout
        self.metrics = MetricsWriter(layout.metrics_path, TRL_KEYS)
        self.control_reader = ControlReader(layout.control_path)
        self.gpu_memory_reader = gpu_memory_reader
        self.status = TrainingStatus(job_id=layout.job_id, status=TrainingState.STARTING, started_at=time.time())
        self.pause_requested = False
        self._last_status_write = 0.0
        self._attempt_start: tuple[float, int] | None = None
        self._step_started = 0.0
        self._step_time: float | None = None
        self._tokens_seen: tuple[float, float] | None = None

    def _write_status(self, force: bool = False) -> None:
        now = time.time()
        if not force and now - self._last_status_write < STATUS_WRITE_INTERVAL_S:
            return
        self.status.updated_at = now
        self.status.elapsed_seconds = now - self.status.started_at
        write_status(self.layout.status_path, self.status)
        self._last_status_write = now

    def on_train_begin(self, args, state, control, **kwargs):
        self.status.status = TrainingState.RUNNING
        self.status.total_steps = state.max_steps
        self.status.current_step = state.global_step
        self.status.resumed_from_step = state.global_step or None
        self._attempt_start = (time.time(), state.global_step)
        self._write_status(force=True)

    def on_step_begin(self, args, state, control, **kwargs):
        self._step_started = time.perf_counter()

    def on_step_end(self, args, state, control, **kwargs):
        self._step_time = time.perf_counter() - self._step_started
        self.status.current_step = state.global_step
        self.status.epoch = state.epoch
        self.status.eta_seconds = self._eta(state)
        if self.control_reader.pending_action() == ControlAction.PAUSE:
            self.pause_requested = True
            control.should_save = True
            control.should_training_stop = True
        self._write_status(force=state.global_step == state.max_steps)
        return control

    def _eta(self, state) -> float | None:
        started_at, first_step = self._attempt_start
        done = state.global_step - first_step
        if done <= 0 or not state.max_steps:
            return None
        return (time.time() - started_at) / done * (state.max_steps - state.global_step)

    def on_log(self, args, state, control, logs=None, **kwargs):
        logs = dict(logs or {})
        if SUMMARY_KEYS & logs.keys():
            self.status.summary = {k: v for k, v in logs.items() if isinstance(v, (int, float))}
            return
        anomaly = None
        if "loss" in logs:  # a training step, not an evaluation
            self._add_performance(logs)
            self.status.loss = logs["loss"]
            if not math.isfinite(logs["loss"]):
                anomaly = {"type": "non_finite_loss", "message": f"loss is {logs['loss']} at step {state.global_step}"}
                self.status.anomaly_detected = True
                self.status.anomaly_reason = anomaly["message"]
        if "learning_rate" in logs:
            self.status.learning_rate = logs["learning_rate"]
        self.metrics.write(state.global_step, logs, anomaly=anomaly)

    def _add_performance(self, logs: dict) -> None:
        now = time.perf_counter()
        if "num_tokens" in logs:
            if self._tokens_seen is not None and now > self._tokens_seen[0]:
                logs["tokens_per_second"] = (logs["num_tokens"] - self._tokens_seen[1]) / (now - self._tokens_seen[0])
            self._tokens_seen = (now, logs["num_tokens"])
        if self._step_time is not None and "step_time" not in logs:
            logs["step_time"] = self._step_time
        if self.gpu_memory_reader is not None:
            logs["gpu_memory_allocated_gib"] = self.gpu_memory_reader()

    def on_save(self, args, state, control, **kwargs):
        mark_complete(Path(args.output_dir) / f"checkpoint-{state.global_step}")
        self.status.last_checkpoint_step = state.global_step
        self._write_status(force=True)

    def finish(self, state: TrainingState, message: str | None = None) -> None:
        self.status.status = state
        self.status.message = message
        self.status.eta_seconds = 0.0 if state == TrainingState.COMPLETED else None
        self._write_status(force=True)
        self.metrics.close()
