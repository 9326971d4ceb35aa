"""The platform's hook inside a TRL trainer: metrics lines, the status file, pause requests, complete checkpoints.

Every process of a job runs it. Only the first (rank 0) writes the job's files, so there is one metrics stream
and one status; a pause is decided by rank 0 and followed by every rank at the same step.
"""

import math
import time
from pathlib import Path

import torch
from transformers import TrainerCallback

from training_platform.contract.control import ControlAction, ControlReader
from training_platform.contract.layout import JobLayout
from training_platform.contract.metrics import MetricsWriter
from training_platform.contract.status import StatusReporter, TrainingState
from training_platform.engines.trl.checkpoints import mark_complete
from training_platform.engines.trl.keys import TRL_KEYS

# transformers logs these once, after the last step; they describe the run, not a step.
SUMMARY_KEYS = {"train_runtime", "train_samples_per_second", "train_steps_per_second", "total_flos", "train_loss"}
STATUS_WRITE_INTERVAL_S = 0.5


class PlatformCallback(TrainerCallback):
    def __init__(self, layout: JobLayout, gpu_memory_reader=None, main_process: bool = True):
        self.main_process = main_process
        self.metrics = MetricsWriter(layout.metrics_path, TRL_KEYS) if main_process else None
        self.control_reader = ControlReader(layout.control_path)
        self.gpu_memory_reader = gpu_memory_reader
        self.reporter = StatusReporter.starting(
            layout.status_path, layout.job_id, min_interval=STATUS_WRITE_INTERVAL_S, writes=main_process
        )
        self.pause_requested = False
        self._step_started = 0.0
        self._step_time: float | None = None
        self._tokens_seen: tuple[float, float] | None = None

    def on_train_begin(self, args, state, control, **kwargs):
        self.reporter.begin(state.max_steps, resumed_from=state.global_step)

    def on_step_begin(self, args, state, control, **kwargs):
        self._step_started = time.perf_counter()

    def on_step_end(self, args, state, control, **kwargs):
        self._step_time = time.perf_counter() - self._step_started
        if self._pause_requested(args):
            self.pause_requested = True
            control.should_save = True
            control.should_training_stop = True
        self.reporter.step(state.global_step, epoch=state.epoch)
        return control

    def _pause_requested(self, args) -> bool:
        """Rank 0 reads the control file and every rank takes its answer: a rank that stopped on its own would
        leave the others waiting in the next step's collectives."""
        wanted = self.main_process and self.control_reader.pending_action() == ControlAction.PAUSE
        if args.world_size > 1:
            flag = torch.tensor([int(wanted)], device=args.device)
            torch.distributed.broadcast(flag, src=0)
            wanted = bool(flag.item())
        return wanted

    def on_log(self, args, state, control, logs=None, **kwargs):
        if self.metrics is None:
            return
        logs = dict(logs or {})
        status = self.reporter.status
        if SUMMARY_KEYS & logs.keys():
            status.summary = {k: v for k, v in logs.items() if isinstance(v, (int, float))}
            return
        anomaly = None
        if "loss" in logs:  # a training step, not an evaluation
            self._add_performance(logs)
            status.loss = logs["loss"]
            if not math.isfinite(logs["loss"]):
                anomaly = {"type": "non_finite_loss", "message": f"loss is {logs['loss']} at step {state.global_step}"}
                status.anomaly_detected = True
                status.anomaly_reason = anomaly["message"]
        if "learning_rate" in logs:
            status.learning_rate = logs["learning_rate"]
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
        # Each rank writes its own part (its RNG state; its shards under FSDP): complete once all have.
        if args.world_size > 1:
            torch.distributed.barrier()
        if self.main_process:
            mark_complete(Path(args.output_dir) / f"checkpoint-{state.global_step}")
        self.reporter.checkpoint(state.global_step)

    def finish(self, state: TrainingState, message: str | None = None) -> None:
        self.reporter.finish(state, message)
        if self.metrics is not None:
            self.metrics.close()
