"""The platform's hook inside a TRL trainer: metrics lines, the status file, pause requests, complete checkpoints,
and what the job's health settings ask of the trainer itself; and, for GRPO/GSPO, a few sampled completions with
their rewards (CompletionsCallback, completions.py).

Every process of a job runs it. Only the first (rank 0) writes the job's files, so there is one metrics stream
and one status; a decision that changes training (a pause, a new learning rate) is taken by every rank at the
same step, or the ranks would wait for each other in different collectives, or train different models.

Health actions (`spec.health`):

- pause_on_non_finite: a training log with a NaN/Inf loss, grad_norm or reward stops the run before that step is
  saved. transformers calls on_log before it saves (Trainer._maybe_log_save_evaluate: log, evaluate, save), so
  clearing should_save there keeps the step's weights, which the non-finite update may have broken, out of every
  checkpoint; the recipe then exports no final model and reports the run paused, with why. The logged loss and
  grad_norm are already the same on every rank (the loss is gathered and averaged, the norm is the clipped
  total); the decision is still all-reduced, so a value seen by one rank alone (a reward) stops them all. With
  fp16 loss scaling an infinite grad_norm alone is the scaler's business (it skips that step and lowers its
  scale), not a broken run.
- live learning-rate requests (contract/control.py): read by rank 0 at the end of each step and broadcast; every
  parameter group's rate and the scheduler's base rates are multiplied, so the schedule keeps its shape, from
  the next step on. The factor shows as `lr_scale` in the metrics line of the first step it applies to, and in
  the status (`lr_scale`, the product in force, and the message).
- layer_grad_norms_every (N): every N steps, the L2 norm of the gradients of each layer group
  (contract/metrics.layer_group) in that step's metrics line as `grad_norm/layer/<group>`. Measured in
  on_pre_optimizer_step, after transformers clipped the gradients (no callback runs between the backward pass
  and the clipping); clipping multiplies every gradient by one coefficient, min(1, max_grad_norm / (grad_norm +
  1e-6)) with the pre-clipping total grad_norm the step logs, so the norms are divided by it: the line holds
  pre-clipping norms, which is what telling vanishing from exploding layers needs. At a step whose total is
  NaN/Inf the clipping destroyed them: only the layers whose gradients are not finite are written (as NaN).
  Under FSDP each rank holds a shard of every gradient: the squared sums are all-reduced.
"""

import math
import time
from pathlib import Path

import torch
from transformers import TrainerCallback

from training_platform.contract.control import ControlAction, ControlReader, LrScaleReader
from training_platform.contract.health import HealthSettings
from training_platform.contract.layout import JobLayout
from training_platform.contract.metrics import LAYER_GRAD_NORM_PREFIX, MetricsWriter, layer_group, non_finite_watched
from training_platform.contract.status import StatusReporter, TrainingState
from training_platform.engines.trl.checkpoints import checkpoint_dir, mark_complete, read_run_state, write_run_state
from training_platform.engines.trl.completions import RolloutRecorder, append_samples, sampled, sampling_interval
from training_platform.engines.trl.keys import TRL_KEYS

# transformers logs these once, after the last step; they describe the run, not a step.
SUMMARY_KEYS = {"train_runtime", "train_samples_per_second", "train_steps_per_second", "total_flos", "train_loss"}
STATUS_WRITE_INTERVAL_S = 0.5
# torch's clip_grad_norm_ (and FSDP's): clip_coef = max_norm / (total_norm + 1e-6), at most 1.
_CLIP_EPSILON = 1e-6


class PlatformCallback(TrainerCallback):
    def __init__(
        self,
        layout: JobLayout,
        gpu_memory_reader=None,
        main_process: bool = True,
        health: HealthSettings | None = None,
    ):
        self.main_process = main_process
        self.health = health or HealthSettings()
        self.metrics = MetricsWriter(layout.metrics_path, TRL_KEYS) if main_process else None
        self.control_reader = ControlReader(layout.control_path)
        self.lr_requests = LrScaleReader(layout.lr_requests_dir)
        self.gpu_memory_reader = gpu_memory_reader
        self.reporter = StatusReporter.starting(
            layout.status_path, layout.job_id, min_interval=STATUS_WRITE_INTERVAL_S, writes=main_process
        )
        self.pause_requested = False
        # Why the trainer paused itself ("loss is nan at step 7"): the recipe ends the run paused, unsaved.
        self.paused_automatically: str | None = None
        self.lr_scale = 1.0  # the product of the live requests in force (restored from the checkpoint resumed)
        self._lr_scale_line: tuple[int, float] | None = None  # (step, factor) for that step's metrics line
        self._layer_groups: list[tuple[str, list[torch.nn.Parameter]]] | None = None
        self._sharded = False
        self._layer_squares: tuple[int, torch.Tensor] | None = None  # (step, squared norms) until its line
        self._step_started = 0.0
        self._step_time: float | None = None
        self._tokens_seen: tuple[float, float] | None = None

    # ---- the run's start: what the checkpoint resumed from says about the learning rate ------------------

    def on_train_begin(self, args, state, control, optimizer=None, lr_scheduler=None, **kwargs):
        # transformers loaded the checkpoint's optimizer and scheduler before this (Trainer._prepare_for_training).
        if state.global_step and optimizer is not None:
            self._restore_learning_rate(args, state.global_step, optimizer, lr_scheduler)
        self.reporter.begin(state.max_steps, resumed_from=state.global_step)

    def _restore_learning_rate(self, args, step: int, optimizer, lr_scheduler) -> None:
        """The checkpoint's optimizer and scheduler carry the rate it was trained with, live requests included.
        The same configured rate: keep it, and the requests it applied are not applied again. A new rate (the
        job resumed with another learning_rate): the schedule goes on from the new peak, and the requests made
        before are replaced by it."""
        saved = read_run_state(checkpoint_dir(Path(args.output_dir), step)) or {}
        base = _base_learning_rates(optimizer, lr_scheduler)
        configured = _positive(saved.get("learning_rate")) or (base[0] if base else None)
        scale = _positive(saved.get("lr_scale")) or 1.0
        if configured is None or math.isclose(configured, args.learning_rate, rel_tol=1e-9):
            self.lr_scale = scale
            self.lr_requests.applied.update(str(i) for i in saved.get("lr_requests_applied") or [])
            if scale != 1.0:
                self.reporter.status.lr_scale = scale
            return
        previous = configured * scale
        scale_learning_rate(optimizer, lr_scheduler, args.learning_rate / previous)
        self.lr_scale = 1.0
        self.lr_requests.supersede_all()
        self.reporter.status.message = (
            f"learning rate {args.learning_rate:g} from step {step + 1} (the checkpoint's was {previous:g})"
        )

    # ---- every step ---------------------------------------------------------------------------------------

    def on_step_begin(self, args, state, control, **kwargs):
        self._step_started = time.perf_counter()

    def on_pre_optimizer_step(self, args, state, control, model=None, **kwargs):
        every = self.health.layer_grad_norms_every
        step = state.global_step + 1  # the step being made; transformers counts it after the optimizer's
        if not every or step % every or model is None:
            return
        squares = self._layer_squares_of(args, model)
        if squares is not None:
            self._layer_squares = (step, squares)

    def on_step_end(self, args, state, control, optimizer=None, lr_scheduler=None, **kwargs):
        self._step_time = time.perf_counter() - self._step_started
        pause, factor, applied = self._requests(args)
        if factor != 1.0 and optimizer is not None:
            scale_learning_rate(optimizer, lr_scheduler, factor)
            self.lr_scale *= factor
            self._lr_scale_line = (state.global_step + 1, factor)
            status = self.reporter.status
            status.lr_scale = self.lr_scale
            which = f" (request {', '.join(applied)})" if applied else ""
            status.message = f"learning rate x{factor:g} from step {state.global_step + 1}{which}"
        if pause:
            self.pause_requested = True
            control.should_save = True
            control.should_training_stop = True
        self.reporter.step(state.global_step, epoch=state.epoch)
        if factor != 1.0:
            self.reporter.write(force=True)
        return control

    def _requests(self, args) -> tuple[bool, float, list[str]]:
        """Rank 0 reads the control file and the learning-rate requests, and every rank takes its answer: a rank
        that stopped on its own would leave the others waiting in the next step's collectives, and ranks with
        different rates would train different models."""
        pause, factor, applied = False, 1.0, []
        if self.main_process:
            pause = self.control_reader.pending_action() == ControlAction.PAUSE
            requests = self.lr_requests.pending()
            self.lr_requests.mark_applied(requests)
            factor = math.prod(request.factor for request in requests)
            applied = [request.request_id for request in requests]
        if args.world_size > 1:
            decided = torch.tensor([float(pause), factor], dtype=torch.float64, device=args.device)
            torch.distributed.broadcast(decided, src=0)
            pause, factor = bool(decided[0].item()), decided[1].item()
        return pause, factor, applied

    def on_log(self, args, state, control, logs=None, **kwargs):
        logs = dict(logs or {})
        if SUMMARY_KEYS & logs.keys():
            if self.metrics is not None:
                self.reporter.status.summary = {k: v for k, v in logs.items() if isinstance(v, (int, float))}
            return
        training_step = "loss" in logs  # not an evaluation
        if training_step and self.health.actions.pause_on_non_finite:
            self._pause_on_non_finite(args, state, control, logs)
        if self.metrics is None:
            self._layer_squares = None
            return
        status = self.reporter.status
        anomaly = None
        if training_step:
            self._add_performance(logs)
            self._add_layer_norms(args, state.global_step, logs)
            if self._lr_scale_line is not None and self._lr_scale_line[0] == state.global_step:
                logs["lr_scale"] = self._lr_scale_line[1]
                self._lr_scale_line = None
            status.loss = logs["loss"]
            broken = non_finite_watched({k: v for k, v in logs.items() if not k.startswith(LAYER_GRAD_NORM_PREFIX)})
            if broken:
                kind = "non_finite_loss" if any("loss" in key for key in broken) else "non_finite"
                anomaly = {"type": kind, "message": _describe(broken, state.global_step)}
                status.anomaly_detected = True
                status.anomaly_reason = anomaly["message"]
        if "learning_rate" in logs:
            status.learning_rate = logs["learning_rate"]
        self.metrics.write(state.global_step, logs, anomaly=anomaly)
        return control

    def _pause_on_non_finite(self, args, state, control, logs: dict) -> None:
        broken = non_finite_watched(logs)
        if args.fp16:  # the loss scaler skips a step whose gradients overflowed, and lowers its scale
            broken = {key: value for key, value in broken.items() if "grad_norm" not in key}
        stop = bool(broken)
        if args.world_size > 1:
            flag = torch.tensor([int(stop)], device=args.device)
            torch.distributed.all_reduce(flag, op=torch.distributed.ReduceOp.MAX)
            stop = bool(flag.item())
        if not stop:
            return
        self.paused_automatically = (
            _describe(broken, state.global_step)
            if broken
            else (f"a loss, grad_norm or reward is not finite on another process at step {state.global_step}")
        )
        # Before transformers saves this step (it saves right after on_log returns): its weights stay out.
        control.should_save = False
        control.should_evaluate = False
        control.should_training_stop = True

    def on_epoch_end(self, args, state, control, **kwargs):
        if self.paused_automatically is not None:  # an epoch-end save would come after the step's own
            control.should_save = False
            control.should_evaluate = False
        return control

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

    # ---- per-layer gradient norms -------------------------------------------------------------------------

    def _layer_squares_of(self, args, model) -> torch.Tensor | None:
        """Each layer group's squared gradient norm, after clipping (one pass over the trainable parameters).
        Under DDP every rank holds the same averaged gradients and rank 0 alone measures them; under FSDP every
        rank measures its shard and the sums are all-reduced (every rank takes part)."""
        if self._layer_groups is None:
            self._layer_groups = _layer_groups(model)
            self._sharded = _is_sharded(model)
        if not self._layer_groups or not (self.main_process or self._sharded):
            return None
        device = args.device
        squares = []
        for _, parameters in self._layer_groups:
            norms = [
                torch.linalg.vector_norm(_local(parameter.grad).detach(), dtype=torch.float32).to(device)
                for parameter in parameters
                if parameter.grad is not None
            ]
            squares.append(torch.stack(norms).square().sum() if norms else torch.zeros((), device=device))
        total = torch.stack(squares)
        if self._sharded and args.world_size > 1:
            torch.distributed.all_reduce(total)
        return total

    def _add_layer_norms(self, args, step: int, logs: dict) -> None:
        if self._layer_squares is None or self._layer_squares[0] != step:
            return
        squares = self._layer_squares[1].double().cpu().tolist()
        self._layer_squares = None
        names = [name for name, _ in self._layer_groups or []]
        clipped_by = _clip_coefficient(args.max_grad_norm, logs.get("grad_norm"))
        for name, square in zip(names, squares, strict=True):
            norm = math.sqrt(square) if square >= 0 else math.nan  # NaN stays NaN
            if clipped_by is None:  # the clipping left no trace of this layer's norm
                if not math.isfinite(norm):
                    logs[f"{LAYER_GRAD_NORM_PREFIX}{name}"] = math.nan
                continue
            logs[f"{LAYER_GRAD_NORM_PREFIX}{name}"] = norm / clipped_by

    # ---- checkpoints and the end ----------------------------------------------------------------------------

    def on_evaluate(self, args, state, control, metrics=None, **kwargs):
        """save_on_best: an evaluation with a new lowest eval_loss saves this step's checkpoint, which transformers
        then keeps out of save_total_limit's rotation (arguments.py makes eval_loss its metric_for_best_model). The
        eval loss is gathered over the ranks, so every rank takes the same decision."""
        loss = (metrics or {}).get("eval_loss")
        if not self.health.actions.save_on_best or loss is None or not math.isfinite(loss):
            return control
        if state.best_metric is None or loss < state.best_metric:
            control.should_save = True
            self.reporter.status.message = f"checkpoint at step {state.global_step} kept: best eval_loss {loss:.6g}"
        return control

    def on_save(self, args, state, control, **kwargs):
        # Each rank writes its own part (its RNG state; its shards under FSDP): complete once all have.
        if args.world_size > 1:
            torch.distributed.barrier()
        if self.main_process:
            checkpoint = checkpoint_dir(Path(args.output_dir), state.global_step)
            write_run_state(
                checkpoint,
                {
                    "learning_rate": args.learning_rate,
                    "lr_scale": self.lr_scale,
                    "lr_requests_applied": sorted(self.lr_requests.applied),
                },
            )
            mark_complete(checkpoint)
        self.reporter.checkpoint(state.global_step)

    def finish(self, state: TrainingState, message: str | None = None) -> None:
        self.reporter.finish(state, message)
        if self.metrics is not None:
            self.metrics.close()


class CompletionsCallback(TrainerCallback):
    """A few of the latest completions with their rewards, appended to the job's completions file at the sampled
    training steps (completions.py); the first process alone writes it."""

    def __init__(self, recorder: RolloutRecorder, path: Path):
        self.recorder = recorder
        self.path = path
        self.interval = 1

    def on_train_begin(self, args, state, control, **kwargs):
        self.interval = sampling_interval(state.max_steps)

    def on_log(self, args, state, control, logs=None, **kwargs):
        if "loss" in (logs or {}) and sampled(state.global_step, self.interval):
            append_samples(self.path, self.recorder.samples(state.global_step))


def _describe(broken: dict[str, float], step: int) -> str:
    return ", ".join(f"{key} is {value}" for key, value in broken.items()) + f" at step {step}"


def _positive(value) -> float | None:
    return float(value) if isinstance(value, (int, float)) and math.isfinite(value) and value > 0 else None


def _scheduler(lr_scheduler):
    """The torch scheduler itself (accelerate may wrap it)."""
    return getattr(lr_scheduler, "scheduler", lr_scheduler)


def _base_learning_rates(optimizer, lr_scheduler) -> list[float]:
    scheduler = _scheduler(lr_scheduler)
    if scheduler is not None and hasattr(scheduler, "base_lrs"):
        return [float(rate) for rate in scheduler.base_lrs]
    return [float(group["lr"]) for group in optimizer.param_groups]


def scale_learning_rate(optimizer, lr_scheduler, factor: float) -> None:
    """Multiply the learning rate by `factor` for the steps to come: every parameter group's rate (what the next
    optimizer step uses), the scheduler's base rates (what its next step computes from: the schedule keeps its
    shape) and its last rates (what transformers logs as the step's learning_rate)."""
    for group in optimizer.param_groups:
        group["lr"] = group["lr"] * factor
        if "initial_lr" in group:
            group["initial_lr"] = group["initial_lr"] * factor
    scheduler = _scheduler(lr_scheduler)
    if scheduler is None:
        return
    for name in ("base_lrs", "_last_lr"):
        if isinstance(getattr(scheduler, name, None), list):
            setattr(scheduler, name, [rate * factor for rate in getattr(scheduler, name)])


def _layer_groups(model) -> list[tuple[str, list[torch.nn.Parameter]]]:
    """The trainable parameters by heatmap row, rows in key order. A parameter shared by two modules (tied
    embeddings and LM head) is listed once, as named_parameters does: under the embeddings."""
    groups: dict[str, list[torch.nn.Parameter]] = {}
    for name, parameter in model.named_parameters():
        if parameter.requires_grad:
            groups.setdefault(layer_group(name), []).append(parameter)
    return sorted(groups.items())


def _is_sharded(model) -> bool:
    """FSDP (1 or 2): each rank holds a shard of each gradient."""
    if not torch.distributed.is_available():
        return False
    from torch.distributed.fsdp import FSDPModule, FullyShardedDataParallel
    from torch.distributed.tensor import DTensor

    if any(isinstance(module, (FullyShardedDataParallel, FSDPModule)) for module in model.modules()):
        return True
    return any(isinstance(parameter, DTensor) for parameter in model.parameters())


def _local(gradient: torch.Tensor) -> torch.Tensor:
    """This rank's part of a gradient (FSDP2's are DTensors; FSDP1's with use_orig_params are views of the local
    shard already)."""
    to_local = getattr(gradient, "to_local", None)
    return to_local() if callable(to_local) else gradient


def _clip_coefficient(max_grad_norm: float, grad_norm) -> float | None:
    """What clipping multiplied every gradient by; None when it cannot be undone (a NaN/Inf total made it 0 or
    NaN)."""
    if not max_grad_norm or max_grad_norm <= 0 or grad_norm is None:
        return 1.0
    if not math.isfinite(grad_norm):
        return None
    coefficient = min(1.0, max_grad_norm / (grad_norm + _CLIP_EPSILON))
    return coefficient if coefficient > 0 else None
