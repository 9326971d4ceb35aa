"""Detectors over the canonical metric stream and the job's log: pure, streaming, bounded.

Each detector sees one step at a time (`observe(step, values)`, the step's canonical values, NaN and Inf
included, a key absent when the step did not log it) and keeps only bounded state: running counters, EMAs and
windows of at most `settings.MAX_WINDOW` values. So the same code runs inside ingestion and re-diagnoses a whole
finished job, and the same steps in the same order give the same signals.

A detector signals on every step its condition holds, not only on the first: the findings store merges a kind's
repeated signals into one finding whose last step moves. Each detector other than non_finite reads only finite
values; a NaN is non_finite's to report, and the others treat it as a step that did not log the metric.

A signal's `params` fill its message (messages.py); `params["rule"]`, where present, says which of the kind's
conditions held, and each rule has its own text.
"""

import math
import re
from bisect import bisect_left, insort
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise
from typing import Literal, Protocol

from training_platform.contract.health import (
    DiagnosticsSettings,
    GradExplosionSettings,
    GradVanishingSettings,
    InitialLossSettings,
    KlExplosionSettings,
    LossPlateauSettings,
    NonFiniteSettings,
    OverfittingSettings,
    RewardCollapseSettings,
    SlowStepSettings,
    ThroughputDropSettings,
)
from training_platform.contract.metrics import LAYER_GRAD_NORM_PREFIX, is_watched_for_non_finite
from training_platform.contract.params import Algorithm

Severity = Literal["info", "warning", "critical"]
Params = dict[str, str | int | float]


@dataclass(frozen=True)
class Signal:
    kind: str
    severity: Severity
    step: int
    evidence: dict[str, float]  # the metric values that show it, as logged (NaN and Inf included)
    params: Params = field(default_factory=dict)
    best_step: int | None = None  # the step whose checkpoint to keep, where a kind knows one


class MetricDetector(Protocol):
    kind: str

    def observe(self, step: int, values: Mapping[str, float]) -> list[Signal]: ...


def _finite(values: Mapping[str, float], key: str) -> float | None:
    value = values.get(key)
    return value if value is not None and math.isfinite(value) else None


class RollingMedian:
    """The median of the last `size` values: a deque keeps their order, a sorted list their ranks. Adding a value
    moves at most `size` list entries, a cost bounded by the window, not by the run."""

    def __init__(self, size: int):
        self._in_order: deque[float] = deque(maxlen=size)
        self._sorted: list[float] = []

    def __len__(self) -> int:
        return len(self._in_order)

    def add(self, value: float) -> None:
        if len(self._in_order) == self._in_order.maxlen:
            del self._sorted[bisect_left(self._sorted, self._in_order[0])]
        self._in_order.append(value)
        insort(self._sorted, value)

    @property
    def median(self) -> float:
        middle = len(self._sorted) // 2
        if len(self._sorted) % 2:
            return self._sorted[middle]
        return (self._sorted[middle - 1] + self._sorted[middle]) / 2


class Ema:
    """Exponential moving average; the first value starts it."""

    def __init__(self, weight: float):
        self.weight = weight
        self.value: float | None = None

    def add(self, value: float) -> float:
        self.value = value if self.value is None else self.value + self.weight * (value - self.value)
        return self.value


class Streak:
    """The current run of consecutive steps on which a condition held: since when, how long, and its most extreme
    value as `pick` (max or min) chooses."""

    def __init__(self, pick: Callable[[float, float], float]):
        self._pick = pick
        self.since: int | None = None
        self.length = 0
        self.extreme = math.nan

    def update(self, step: int, holds: bool, value: float) -> None:
        if not holds:
            self.since, self.length, self.extreme = None, 0, math.nan
        elif self.since is None:
            self.since, self.length, self.extreme = step, 1, value
        else:
            self.length += 1
            self.extreme = self._pick(self.extreme, value)


class NonFiniteDetector:
    """NaN or Inf in any loss, gradient-norm or reward key: critical, on every step that has one."""

    kind = "non_finite"

    def __init__(self, settings: NonFiniteSettings):
        self.settings = settings

    def observe(self, step: int, values: Mapping[str, float]) -> list[Signal]:
        # The trainer's test (contract/metrics.py non_finite_watched) on values already numbers: finiteness first,
        # since it is what almost every value passes.
        broken = {k: v for k, v in values.items() if not math.isfinite(v) and is_watched_for_non_finite(k)}
        if not broken:
            return []
        return [Signal(self.kind, "critical", step, broken, {"keys": ", ".join(sorted(broken))})]


class KlExplosionDetector:
    """kl above its ceiling (critical), kl_max above its own (warning), or kl a jump above its recent median
    (warning). The jump needs a baseline of `warmup` steps and a KL of at least `min_kl`: early in RL the KL grows
    from exactly 0, and tenfold of 0.001 is still a policy close to its reference."""

    kind = "kl_explosion"

    def __init__(self, settings: KlExplosionSettings):
        self.settings = settings
        self._baseline = RollingMedian(settings.window)

    def observe(self, step: int, values: Mapping[str, float]) -> list[Signal]:
        settings = self.settings
        kl, kl_max = _finite(values, "kl"), _finite(values, "kl_max")
        signal = None
        if kl is not None:
            if kl > settings.ceiling:
                signal = Signal(self.kind, "critical", step, {"kl": kl}, {"rule": "ceiling", "limit": settings.ceiling})
            elif len(self._baseline) >= settings.warmup and kl >= settings.min_kl:
                median = self._baseline.median
                if kl > settings.jump_factor * median:
                    evidence = {"kl": kl, "median_kl": median}
                    params = {"rule": "jump", "limit": settings.jump_factor}
                    signal = Signal(self.kind, "warning", step, evidence, params)
            self._baseline.add(kl)
        if signal is None and kl_max is not None and kl_max > settings.max_ceiling:
            params = {"rule": "max_ceiling", "limit": settings.max_ceiling}
            signal = Signal(self.kind, "warning", step, {"kl_max": kl_max}, params)
        return [signal] if signal else []


class RewardCollapseDetector:
    """Two ways RL rewards collapse (warning):

    - rule "std", GRPO/GSPO only: reward_std below `std_floor` for `std_steps` steps in a row, where its median
      over the `std_window` steps before was above the floor. Every response of a prompt then gets the same
      reward, so the group-normalised advantages, and the gradient, are zero. A run whose rewards were mostly
      alike all along (sparse rewards, or none) has not collapsed: that is a reward or data problem.
    - rule "mean_drop", every RL algorithm: the smoothed reward_mean fell by `drop_fraction` of its best (and by at
      least `min_drop`); best_step is where the best was. The best is tracked after `warmup` steps, because the
      first rewards are noisy.
    """

    kind = "reward_collapse"

    def __init__(self, settings: RewardCollapseSettings, group_rewards: bool):
        self.settings = settings
        self.group_rewards = group_rewards
        self._flat = Streak(min)
        self._recent_std = RollingMedian(settings.std_window)
        self._varied_before_flat = False
        self._mean = Ema(settings.smoothing)
        self._seen = 0
        self._best: tuple[float, int] | None = None  # (smoothed reward_mean, step)

    def observe(self, step: int, values: Mapping[str, float]) -> list[Signal]:
        signals = []
        reward_std = _finite(values, "reward_std") if self.group_rewards else None
        if reward_std is not None:
            signals += self._observe_std(step, reward_std)
        reward_mean = _finite(values, "reward_mean")
        if reward_mean is not None:
            signals += self._observe_mean(step, reward_mean)
        return signals

    def _observe_std(self, step: int, reward_std: float) -> list[Signal]:
        settings = self.settings
        flat = reward_std < settings.std_floor
        if flat and self._flat.length == 0:
            self._varied_before_flat = len(self._recent_std) > 0 and self._recent_std.median >= settings.std_floor
        self._flat.update(step, flat, reward_std)
        self._recent_std.add(reward_std)
        if self._flat.length < settings.std_steps or not self._varied_before_flat:
            return []
        params = {"rule": "std", "limit": settings.std_floor, "since": self._flat.since, "steps": self._flat.length}
        return [Signal(self.kind, "warning", step, {"reward_std": reward_std}, params)]

    def _observe_mean(self, step: int, reward_mean: float) -> list[Signal]:
        settings = self.settings
        smoothed = self._mean.add(reward_mean)
        self._seen += 1
        if self._seen < settings.warmup:
            return []
        if self._best is None or smoothed > self._best[0]:
            self._best = (smoothed, step)
            return []
        best, best_step = self._best
        drop = best - smoothed
        if drop < settings.min_drop or drop < settings.drop_fraction * abs(best):
            return []
        evidence = {"smoothed_reward_mean": smoothed, "best_smoothed_reward_mean": best}
        params = {"rule": "mean_drop", "limit": settings.drop_fraction, "best_step": best_step}
        return [Signal(self.kind, "warning", step, evidence, params, best_step=best_step)]


class StepValues(dict):
    """A step's values, its per-layer gradient norms picked out once for every detector that reads them."""

    @classmethod
    def of(cls, values: Mapping[str, float]) -> "StepValues":
        return values if isinstance(values, StepValues) else cls(values)

    @cached_property
    def layer_grad_norms(self) -> list[tuple[str, float]]:
        return [(key, value) for key, value in self.items() if key.startswith(LAYER_GRAD_NORM_PREFIX)]


class LayerStreaks:
    """A streak per layer of the per-layer gradient norms (`grad_norm/layer/<group>`, logged every N steps, so a
    streak counts measurements): the layer whose streak is long enough and most extreme, if any."""

    def __init__(self, holds: Callable[[float], bool], pick: Callable[[float, float], float], steps: int):
        self._holds, self._pick, self._steps = holds, pick, steps
        self._streaks: dict[str, Streak] = {}

    def observe(self, step: int, values: Mapping[str, float]) -> tuple[str, float, Streak] | None:
        worst: tuple[str, float, Streak] | None = None
        for key, value in StepValues.of(values).layer_grad_norms:
            if not math.isfinite(value):
                continue
            layer = key.removeprefix(LAYER_GRAD_NORM_PREFIX)
            streak = self._streaks.setdefault(layer, Streak(self._pick))
            streak.update(step, self._holds(value), value)
            if streak.length >= self._steps and (worst is None or self._pick(value, worst[1]) == value):
                worst = (layer, value, streak)
        return worst


class GradExplosionDetector:
    """grad_norm above `ceiling` for `steps` steps in a row (warning). TRL and verl log the norm before clipping,
    so clipping does not hide it. Where the trainer logs per-layer norms, the layer above the ceiling for `steps`
    measurements in a row is named too (rule `layer`)."""

    kind = "grad_explosion"

    def __init__(self, settings: GradExplosionSettings):
        self.settings = settings
        self._above = Streak(max)
        self._layers = LayerStreaks(lambda norm: norm > settings.ceiling, max, settings.steps)

    def observe(self, step: int, values: Mapping[str, float]) -> list[Signal]:
        signals = _layer_signals(self.kind, step, self._layers.observe(step, values), self.settings.ceiling)
        grad_norm = _finite(values, "grad_norm")
        if grad_norm is None:
            return signals
        self._above.update(step, grad_norm > self.settings.ceiling, grad_norm)
        if self._above.length < self.settings.steps:
            return signals
        evidence = {"grad_norm": grad_norm, "peak_grad_norm": self._above.extreme}
        params = {"limit": self.settings.ceiling, "since": self._above.since, "steps": self._above.length}
        return [*signals, Signal(self.kind, "warning", step, evidence, params)]


class GradVanishingDetector:
    """grad_norm below `floor` for `steps` steps in a row (warning): the weights have all but stopped moving. Where
    the trainer logs per-layer norms, a layer below the floor for `steps` measurements in a row (rule `layer`):
    one layer that stopped learning while the others go on."""

    kind = "grad_vanishing"

    def __init__(self, settings: GradVanishingSettings):
        self.settings = settings
        self._below = Streak(min)
        self._layers = LayerStreaks(lambda norm: norm < settings.floor, min, settings.steps)

    def observe(self, step: int, values: Mapping[str, float]) -> list[Signal]:
        signals = _layer_signals(self.kind, step, self._layers.observe(step, values), self.settings.floor)
        grad_norm = _finite(values, "grad_norm")
        if grad_norm is None:
            return signals
        self._below.update(step, grad_norm < self.settings.floor, grad_norm)
        if self._below.length < self.settings.steps:
            return signals
        params = {"limit": self.settings.floor, "since": self._below.since, "steps": self._below.length}
        return [*signals, Signal(self.kind, "warning", step, {"grad_norm": grad_norm}, params)]


def _layer_signals(kind: str, step: int, worst: tuple[str, float, Streak] | None, limit: float) -> list[Signal]:
    if worst is None:
        return []
    layer, norm, streak = worst
    params = {"rule": "layer", "layer": layer, "limit": limit, "since": streak.since, "steps": streak.length}
    return [Signal(kind, "warning", step, {"layer_grad_norm": norm}, params)]


class LossPlateauDetector:
    """The smoothed loss improved by less than `min_improvement` (relative) over the last `window` steps, once
    `warmup` steps have passed (info). SFT and DPO only: an RL loss is not an objective that falls (GRPO's sits
    near 0 by construction)."""

    kind = "loss_plateau"

    def __init__(self, settings: LossPlateauSettings):
        self.settings = settings
        self._loss = Ema(settings.smoothing)
        self._history: deque[float] = deque(maxlen=settings.window + 1)
        self._seen = 0

    def observe(self, step: int, values: Mapping[str, float]) -> list[Signal]:
        loss = _finite(values, "loss")
        if loss is None:
            return []
        self._seen += 1
        self._history.append(self._loss.add(loss))
        if self._seen <= self.settings.warmup or len(self._history) < self._history.maxlen:
            return []
        before, now = self._history[0], self._history[-1]
        if before == 0:
            return []
        improvement = (before - now) / abs(before)
        if improvement >= self.settings.min_improvement:
            return []
        evidence = {"smoothed_loss": now, "smoothed_loss_before": before}
        params = {"improvement": improvement, "limit": self.settings.min_improvement, "window": self.settings.window}
        return [Signal(self.kind, "info", step, evidence, params)]


class OverfittingDetector:
    """eval_loss rose over `rises` evaluations in a row, by `min_rise` (relative) in all, while the smoothed
    training loss fell over them (warning); best_step is the step of the lowest eval_loss so far, whose checkpoint
    to keep. A step's training loss is read before its eval_loss, as TRL logs them."""

    kind = "overfitting"

    def __init__(self, settings: OverfittingSettings):
        self.settings = settings
        self._loss = Ema(settings.smoothing)
        self._evals: deque[tuple[float, float | None]] = deque(maxlen=settings.rises + 1)  # (eval_loss, train EMA)
        self._best: tuple[float, int] | None = None  # (eval_loss, step)

    def observe(self, step: int, values: Mapping[str, float]) -> list[Signal]:
        loss = _finite(values, "loss")
        if loss is not None:
            self._loss.add(loss)
        eval_loss = _finite(values, "eval_loss")
        if eval_loss is None:
            return []
        if self._best is None or eval_loss < self._best[0]:
            self._best = (eval_loss, step)
        self._evals.append((eval_loss, self._loss.value))
        if len(self._evals) < self._evals.maxlen:
            return []
        evals = [evaluation for evaluation, _ in self._evals]
        rose_each_time = all(later > earlier for earlier, later in pairwise(evals))
        rose_enough = evals[-1] - evals[0] >= self.settings.min_rise * abs(evals[0])
        train_before, train_now = self._evals[0][1], self._evals[-1][1]
        training_fell = train_before is not None and train_now is not None and train_now < train_before
        if not (rose_each_time and rose_enough and training_fell):
            return []
        best_loss, best_step = self._best
        evidence = {"eval_loss": eval_loss, "best_eval_loss": best_loss, "smoothed_loss": train_now}
        params = {"rises": self.settings.rises, "best_step": best_step}
        return [Signal(self.kind, "warning", step, evidence, params, best_step=best_step)]


class InitialLossDetector:
    """The first finite loss outside the algorithm's usual starting range (info: a hint where to look, since a
    model trained from scratch legitimately starts at ln(vocabulary size)). SFT on a pretrained model starts at
    1.5-3 (docs/health.md, "Normal ranges": "> 5.0: a data or model problem"); DPO at ln 2 ≈ 0.693 when the
    policy equals its reference; an RL policy loss near 0, its advantages being centred. Judged once, and only if
    logged within `within_steps`: a run resumed at step 500 has no initial loss."""

    kind = "initial_loss"

    def __init__(self, settings: InitialLossSettings, algorithm: Algorithm):
        self.settings = settings
        self.algorithm = algorithm
        by_algorithm = {Algorithm.SFT: settings.sft, Algorithm.DPO: settings.dpo}
        self.expected = by_algorithm.get(algorithm, settings.rl)
        self._judged = False

    def observe(self, step: int, values: Mapping[str, float]) -> list[Signal]:
        loss = _finite(values, "loss")
        if loss is None or self._judged:
            return []
        self._judged = True
        if step > self.settings.within_steps or self.expected.low <= loss <= self.expected.high:
            return []
        rule, limit = ("high", self.expected.high) if loss > self.expected.high else ("low", self.expected.low)
        params = {"rule": rule, "limit": limit, "algorithm": self.algorithm.value}
        return [Signal(self.kind, "info", step, {"loss": loss}, params)]


class SlowStepDetector:
    """step_time above `factor` x its running median, and at least `min_excess_seconds` above it, after `warmup`
    steps (warning). Steps on the save or eval interval are excepted: their time includes writing a checkpoint or
    evaluating (verl times both inside the step). The median takes every step in, so a lasting change becomes the
    new normal after about half a window."""

    kind = "slow_step"

    def __init__(self, settings: SlowStepSettings):
        self.settings = settings
        self._baseline = RollingMedian(settings.window)
        self._excepted_every = [every for every in (settings.save_steps, settings.eval_steps) if every]

    def observe(self, step: int, values: Mapping[str, float]) -> list[Signal]:
        step_time = _finite(values, "step_time")
        if step_time is None or any(step % every == 0 for every in self._excepted_every):
            return []
        settings = self.settings
        signals = []
        if len(self._baseline) >= settings.warmup:
            median = self._baseline.median
            if step_time > settings.factor * median and step_time - median >= settings.min_excess_seconds:
                evidence = {"step_time": step_time, "median_step_time": median}
                params = {"ratio": step_time / median if median else math.inf, "limit": settings.factor}
                signals.append(Signal(self.kind, "warning", step, evidence, params))
        self._baseline.add(step_time)
        return signals


class ThroughputDropDetector:
    """tokens_per_second below `fraction` x its running median for `steps` steps in a row, after `warmup` steps
    (warning). One slow log interval (a checkpoint save between two logs) is not a drop."""

    kind = "throughput_drop"

    def __init__(self, settings: ThroughputDropSettings):
        self.settings = settings
        self._baseline = RollingMedian(settings.window)
        self._low = Streak(min)

    def observe(self, step: int, values: Mapping[str, float]) -> list[Signal]:
        throughput = _finite(values, "tokens_per_second")
        if throughput is None:
            return []
        settings = self.settings
        ready = len(self._baseline) >= settings.warmup
        median = self._baseline.median if ready else math.nan
        self._low.update(step, ready and throughput < settings.fraction * median, throughput)
        self._baseline.add(throughput)
        if self._low.length < settings.steps:
            return []
        evidence = {"tokens_per_second": throughput, "median_tokens_per_second": median}
        params = {"limit": settings.fraction, "since": self._low.since, "steps": self._low.length}
        return [Signal(self.kind, "warning", step, evidence, params)]


@dataclass(frozen=True)
class LogPattern:
    kind: str
    rule: str
    pattern: str  # a regular expression, searched in the line


# The log lines that mean a run failed or is about to; the first pattern that a line matches names it, so the
# specific come before the general.
LOG_PATTERNS = (
    # Ray's memory monitor killing a worker: host memory, not the GPU's.
    LogPattern("oom", "ray", r"ray\.exceptions\.OutOfMemoryError"),
    LogPattern("oom", "ray", r"killed due to memory pressure"),
    # torch on CUDA ("CUDA out of memory. Tried to allocate ..."), on Apple's GPU, and its exception class.
    LogPattern("oom", "gpu", r"CUDA out of memory"),
    LogPattern("oom", "gpu", r"MPS backend out of memory"),
    LogPattern("oom", "gpu", r"OutOfMemoryError"),
    # The kernel's OOM killer: the shell reports its SIGKILL as a bare "Killed"; dmesg as "Killed process".
    LogPattern("oom", "host", r"^\s*Killed\s*$"),
    LogPattern("oom", "host", r"Out of memory: Killed process"),
    # torch.distributed's watchdog, and NCCL's own wording.
    LogPattern("nccl_timeout", "watchdog", r"Watchdog caught collective operation timeout"),
    LogPattern("nccl_timeout", "watchdog", r"NCCL timeout"),
    LogPattern("fatal_error", "nccl_error", r"(?:RuntimeError|DistBackendError): NCCL error"),
    LogPattern("fatal_error", "segfault", r"Segmentation fault|SIGSEGV"),
)
# What of a matching line a signal quotes.
MAX_QUOTED_LINE = 300


class LogDetector:
    """Fatal lines of a job's log (LOG_PATTERNS), each a critical signal: `oom`, `nccl_timeout`, `fatal_error`."""

    def __init__(self) -> None:
        self._patterns = [(re.compile(pattern.pattern), pattern) for pattern in LOG_PATTERNS]

    def observe_line(self, line: str, step: int) -> Signal | None:
        for expression, pattern in self._patterns:
            if expression.search(line):
                quoted = line.strip()[:MAX_QUOTED_LINE]
                return Signal(pattern.kind, "critical", step, {}, {"rule": pattern.rule, "line": quoted})
        return None


class Diagnoser:
    """Every enabled detector that applies to the job's algorithm, fed one step at a time in step order. Log lines
    are dated by the last step observed (0 before the first), unless the caller knows better."""

    def __init__(self, settings: DiagnosticsSettings, algorithm: Algorithm):
        supervised = algorithm in (Algorithm.SFT, Algorithm.DPO)
        candidates: list[tuple[bool, MetricDetector]] = [
            (settings.non_finite.enabled, NonFiniteDetector(settings.non_finite)),
            (settings.kl_explosion.enabled, KlExplosionDetector(settings.kl_explosion)),
            (
                settings.reward_collapse.enabled and not supervised,
                RewardCollapseDetector(settings.reward_collapse, algorithm in (Algorithm.GRPO, Algorithm.GSPO)),
            ),
            (settings.grad_explosion.enabled, GradExplosionDetector(settings.grad_explosion)),
            (settings.grad_vanishing.enabled, GradVanishingDetector(settings.grad_vanishing)),
            (settings.loss_plateau.enabled and supervised, LossPlateauDetector(settings.loss_plateau)),
            (settings.overfitting.enabled, OverfittingDetector(settings.overfitting)),
            (settings.initial_loss.enabled, InitialLossDetector(settings.initial_loss, algorithm)),
            (settings.slow_step.enabled, SlowStepDetector(settings.slow_step)),
            (settings.throughput_drop.enabled, ThroughputDropDetector(settings.throughput_drop)),
        ]
        self.detectors = [detector for enabled, detector in candidates if enabled]
        self.log = LogDetector() if settings.log_lines.enabled else None
        self.last_step = 0

    def observe(self, step: int, values: Mapping[str, float]) -> list[Signal]:
        self.last_step = step
        values = StepValues.of(values)
        return [signal for detector in self.detectors for signal in detector.observe(step, values)]

    def observe_line(self, line: str, step: int | None = None) -> Signal | None:
        if self.log is None:
            return None
        return self.log.observe_line(line, self.last_step if step is None else step)
