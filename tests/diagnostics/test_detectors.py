"""The detectors: each finds its planted fault at the right step and stays quiet on clean curves, the same steps
give the same signals however they are fed, state stays bounded, and every signal reads in both languages.

The clean curves of real runs, tests/diagnostics/data/demo_{sft,dpo,grpo}.jsonl, are the `job_metrics.jsonl` files
of three TRL runs of the demo on a CPU (1 thread, about 25 s each), recorded with

    python -m training_platform.engines.trl --config run_config.json

on RunSpecs (cpu_threads=1) over the demo model and data as `training_platform.demo.assets` builds them:
- SFT: the randomly initialised demo model, demo SFT data, DEMO_SFT_PARAMS (200 steps, lr 3e-3, save_interval 50)
  plus eval_interval 20 on a held-out set (the demo eval set's prompts and references, as prompt/response);
- DPO: the SFT run's final model, demo DPO data, lr 1e-4, batch 8, max_steps 48, beta 0.1, max_length 64;
- GRPO: the SFT run's final model, demo GRPO data, lr 1e-5, batch 4, rollout_n 4, micro batch 16, max_steps 40,
  max_prompt_length 64, max_response_length 16, kl_coef 0.04, reward math_verify with last_number extraction.
"""

import math
import random
import statistics
from collections import deque
from collections.abc import Iterable, Mapping
from functools import partial
from pathlib import Path

import pytest

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
from training_platform.contract.params import Algorithm
from training_platform.diagnostics.detectors import (
    Diagnoser,
    GradExplosionDetector,
    GradVanishingDetector,
    InitialLossDetector,
    KlExplosionDetector,
    LogDetector,
    LossPlateauDetector,
    NonFiniteDetector,
    OverfittingDetector,
    RewardCollapseDetector,
    RollingMedian,
    Signal,
    SlowStepDetector,
    ThroughputDropDetector,
)
from training_platform.diagnostics.messages import LANGUAGES, TEXTS, describe
from training_platform.metrics.reader import LocalFileSource, MetricsReader

Steps = list[tuple[int, dict[str, float]]]


def feed(detector, steps: Iterable[tuple[int, Mapping[str, float]]]) -> list[Signal]:
    return [signal for step, values in steps for signal in detector.observe(step, values)]


def series(key: str, values: Iterable[float], start: int = 1) -> Steps:
    return [(step, {key: value}) for step, value in enumerate(values, start)]


def noisy(level: float, count: int, spread: float = 0.05, seed: int = 0) -> list[float]:
    rng = random.Random(seed)
    return [level * (1 + rng.uniform(-spread, spread)) for _ in range(count)]


def healthy_sft(count: int) -> Steps:
    """An SFT run as it should look: loss falling from 2.5, grad_norm about 1, steady speed, eval every 50 steps."""
    rng = random.Random(1)
    steps = []
    for step in range(1, count + 1):
        loss = 0.8 + 1.7 * math.exp(-step / 300)
        values = {
            "loss": loss * rng.uniform(0.97, 1.03),
            "grad_norm": rng.uniform(0.5, 2.0),
            "learning_rate": 2e-5,
            "step_time": rng.uniform(1.8, 2.4),
            "tokens_per_second": rng.uniform(900, 1100),
        }
        if step % 50 == 0:
            values["eval_loss"] = loss + 0.2
        steps.append((step, values))
    return steps


def healthy_grpo(count: int) -> Steps:
    """A GRPO run as it should look: reward rising, its spread alive, the KL creeping up from 0."""
    rng = random.Random(2)
    steps = []
    for step in range(1, count + 1):
        values = {
            "loss": rng.uniform(-0.05, 0.05),
            "grad_norm": rng.uniform(0.1, 0.6),
            "reward_mean": 0.2 + 0.5 * step / count + rng.uniform(-0.05, 0.05),
            "reward_std": rng.uniform(0.2, 0.4),
            "kl": 0.05 * step / count * rng.uniform(0.5, 1.5),
            "step_time": rng.uniform(8, 10),
            "tokens_per_second": rng.uniform(400, 500),
        }
        steps.append((step, values))
    return steps


# Each planted fault: the detector, the steps, and the first signal's step, severity and params it must show.
PLANTED = {
    "non_finite in grad_norm": (
        partial(NonFiniteDetector, NonFiniteSettings()),
        series("grad_norm", [1.0] * 12 + [math.inf]),
        (13, "critical", {"keys": "grad_norm"}),
    ),
    "non_finite in a trainer's own loss key": (
        partial(NonFiniteDetector, NonFiniteSettings()),
        [(1, {"actor/pg_loss": 0.1}), (2, {"actor/pg_loss": math.nan, "rewards/format/mean": -math.inf})],
        (2, "critical", {"keys": "actor/pg_loss, rewards/format/mean"}),
    ),
    "kl above its ceiling": (
        partial(KlExplosionDetector, KlExplosionSettings()),
        series("kl", noisy(0.02, 60) + [1.5]),
        (61, "critical", {"rule": "ceiling", "limit": 1.0}),
    ),
    "kl jumping tenfold over its median": (
        partial(KlExplosionDetector, KlExplosionSettings()),
        series("kl", noisy(0.02, 40) + [0.3]),
        (41, "warning", {"rule": "jump", "limit": 10.0}),
    ),
    "kl_max above its ceiling": (
        partial(KlExplosionDetector, KlExplosionSettings()),
        series("kl_max", [2.0] * 29 + [15.0]),
        (30, "warning", {"rule": "max_ceiling", "limit": 10.0}),
    ),
    "group rewards all alike for 10 steps": (
        partial(RewardCollapseDetector, RewardCollapseSettings(), group_rewards=True),
        series("reward_std", noisy(0.3, 20) + [0.0] * 15),
        (30, "warning", {"rule": "std", "since": 21, "steps": 10}),
    ),
    # The smoothed mean (EMA weight 0.1) of 0.8 then 0 halves after 7 steps at 0: 0.8 x 0.9**7 = 0.38.
    "reward mean halving from its best": (
        partial(RewardCollapseDetector, RewardCollapseSettings(), group_rewards=False),
        series("reward_mean", [0.8] * 40 + [0.0] * 10),
        (47, "warning", {"rule": "mean_drop", "best_step": 20}),
    ),
    "grad_norm above 100 for 5 steps": (
        partial(GradExplosionDetector, GradExplosionSettings()),
        series("grad_norm", noisy(1.0, 49) + [150, 412.3, 200, 180, 160, 170]),
        (54, "warning", {"since": 50, "steps": 5, "limit": 100.0}),
    ),
    "grad_norm below 1e-6 for 10 steps": (
        partial(GradVanishingDetector, GradVanishingSettings()),
        series("grad_norm", noisy(1.0, 30) + [1e-9] * 12),
        (40, "warning", {"since": 31, "steps": 10}),
    ),
    # Per-layer norms every 10 steps: layer 002 stops learning at step 100 while the rest go on.
    "one layer's gradients vanishing for 10 measurements": (
        partial(GradVanishingDetector, GradVanishingSettings()),
        [
            (step, {f"grad_norm/layer/{layer:03d}": 1e-9 if layer == 2 and step >= 100 else 0.5 for layer in range(4)})
            for step in range(10, 300, 10)
        ],
        (190, "warning", {"rule": "layer", "layer": "002", "since": 100, "steps": 10}),
    ),
    "one layer's gradients above 100 for 5 measurements": (
        partial(GradExplosionDetector, GradExplosionSettings()),
        [
            (step, {"grad_norm/layer/embed": 0.5, "grad_norm/layer/head": 300.0 if step >= 50 else 2.0})
            for step in range(10, 200, 10)
        ],
        (90, "warning", {"rule": "layer", "layer": "head", "since": 50, "steps": 5}),
    ),
    "loss flat after falling 5% a step": (
        partial(LossPlateauDetector, LossPlateauSettings(window=10, warmup=0, smoothing=1.0)),
        series("loss", [3.0 * 0.95**step for step in range(30)] + [3.0 * 0.95**30] * 20),
        (41, "info", {"window": 10}),
    ),
    "loss flat from the start, judged after the defaults' warm-up": (
        partial(LossPlateauDetector, LossPlateauSettings()),
        series("loss", [2.0] * 250),
        (201, "info", {"window": 200}),
    ),
    "eval_loss rising twice while the training loss falls": (
        partial(OverfittingDetector, OverfittingSettings()),
        [
            (step * 10, {"loss": 2.0 - 0.1 * step, "eval_loss": eval_loss})
            for step, eval_loss in enumerate([2.0, 1.8, 1.6, 1.5, 1.55, 1.65, 1.7], 1)
        ],
        (60, "warning", {"rises": 2, "best_step": 40}),
    ),
    "an SFT loss starting above 5": (
        partial(InitialLossDetector, InitialLossSettings(), Algorithm.SFT),
        series("loss", [7.2, 6.0, 5.1]),
        (1, "info", {"rule": "high", "algorithm": "sft", "limit": 5.0}),
    ),
    "a DPO loss starting far below ln 2": (
        partial(InitialLossDetector, InitialLossSettings(), Algorithm.DPO),
        [(1, {"loss": math.nan}), (2, {"loss": 0.3})],
        (2, "info", {"rule": "low", "algorithm": "dpo", "limit": 0.5}),
    ),
    "one step three times slower than usual": (
        partial(SlowStepDetector, SlowStepSettings(save_steps=20)),
        series("step_time", noisy(2.0, 39) + [9.0] + noisy(2.0, 4) + [9.0]),
        (45, "warning", {"limit": 3.0}),
    ),
    "throughput down to 30% for 5 steps": (
        partial(ThroughputDropDetector, ThroughputDropSettings()),
        series("tokens_per_second", noisy(1000, 40) + [300] * 6),
        (45, "warning", {"since": 41, "steps": 5}),
    ),
}


def planted_signals(name: str) -> list[Signal]:
    make_detector, steps, _ = PLANTED[name]
    return feed(make_detector(), steps)


@pytest.mark.parametrize("name", PLANTED)
def test_a_planted_fault_is_found_at_its_step(name):
    make_detector, steps, (step, severity, params) = PLANTED[name]
    detector = make_detector()
    first = feed(detector, steps)[0]
    assert (first.kind, first.step, first.severity) == (detector.kind, step, severity)
    assert params.items() <= first.params.items()


def test_a_fault_signals_on_every_step_it_holds_and_no_longer():
    steps = series("grad_norm", [1.0] * 10 + [500.0] * 7 + [1.0] * 5)
    assert [signal.step for signal in feed(GradExplosionDetector(GradExplosionSettings()), steps)] == [15, 16, 17]


def test_evidence_names_the_values_that_show_it():
    [signal] = feed(GradExplosionDetector(GradExplosionSettings(steps=2)), series("grad_norm", [150, 412.3, 99]))
    assert signal.evidence == {"grad_norm": 412.3, "peak_grad_norm": 412.3}
    [overfit] = [s for s in planted_signals("eval_loss rising twice while the training loss falls") if s.step == 60]
    assert overfit.best_step == 40 and overfit.evidence["best_eval_loss"] == 1.5


CLEAN = {
    "non_finite: NaN in a key that is not a loss, gradient or reward": (
        partial(NonFiniteDetector, NonFiniteSettings()),
        [(1, {"entropy": math.nan, "loss": 1.0, "reward_mean": -3.0})],
    ),
    "kl_explosion: a KL growing steadily from 0": (
        partial(KlExplosionDetector, KlExplosionSettings()),
        series("kl", [0.0] * 20 + [0.001 * step for step in range(1, 300)]),
    ),
    "reward_collapse: rewards that never varied have not collapsed": (
        partial(RewardCollapseDetector, RewardCollapseSettings(), group_rewards=True),
        series("reward_std", [0.0] * 50),
    ),
    "reward_collapse: sparse rewards, alike on most steps all along": (
        partial(RewardCollapseDetector, RewardCollapseSettings(), group_rewards=True),
        series("reward_std", ([0.0] * 3 + [0.25]) * 5 + [0.0] * 12 + [0.25]),
    ),
    "reward_collapse: a reward_std of 0 outside GRPO and GSPO": (
        partial(RewardCollapseDetector, RewardCollapseSettings(), group_rewards=False),
        series("reward_std", [0.3] * 5 + [0.0] * 50),
    ),
    "reward_collapse: a negative reward dipping by less than min_drop": (
        partial(RewardCollapseDetector, RewardCollapseSettings(), group_rewards=False),
        series("reward_mean", [-0.05] * 30 + [-0.09] * 30),
    ),
    "grad_explosion: single spikes": (
        partial(GradExplosionDetector, GradExplosionSettings()),
        series("grad_norm", [1.0, 1.0, 500.0, 1.0, 300.0, 300.0, 1.0] * 10),
    ),
    "grad_vanishing: a zero gradient now and then": (
        partial(GradVanishingDetector, GradVanishingSettings()),
        series("grad_norm", ([0.0] * 9 + [0.2]) * 10),
    ),
    "loss_plateau: a loss still falling slowly": (
        partial(LossPlateauDetector, LossPlateauSettings()),
        series(
            "loss",
            [0.5 + 2.5 * math.exp(-step / 300) * random.Random(step).uniform(0.98, 1.02) for step in range(1000)],
        ),
    ),
    "overfitting: eval_loss rising with the training loss (divergence, not overfitting)": (
        partial(OverfittingDetector, OverfittingSettings()),
        [(step, {"loss": 1.0 + 0.1 * step, "eval_loss": 1.0 + 0.1 * step}) for step in range(1, 10)],
    ),
    "overfitting: eval_loss wobbling up by noise (the demo SFT's last evaluations)": (
        partial(OverfittingDetector, OverfittingSettings()),
        [
            (step, {"loss": 0.5 - step / 1000, "eval_loss": loss})
            for step, loss in [(160, 0.4674), (180, 0.4676), (200, 0.4682)]
        ],
    ),
    "overfitting: eval_loss wobbling down": (
        partial(OverfittingDetector, OverfittingSettings()),
        series("eval_loss", [2.0, 2.1, 1.8, 1.85, 1.6, 1.7, 1.5]),
    ),
    "initial_loss: a resumed run's first loss": (
        partial(InitialLossDetector, InitialLossSettings(), Algorithm.SFT),
        series("loss", [9.0], start=500),
    ),
    "initial_loss: DPO at ln 2": (
        partial(InitialLossDetector, InitialLossSettings(), Algorithm.DPO),
        series("loss", [0.6931, 20.0]),
    ),
    "slow_step: checkpoint-save steps": (
        partial(SlowStepDetector, SlowStepSettings(save_steps=20)),
        series("step_time", [2.0] * 19 + [30.0] + [2.0] * 19 + [30.0]),
    ),
    "slow_step: sub-second jitter of a fast run": (
        partial(SlowStepDetector, SlowStepSettings()),
        series("step_time", [0.05] * 20 + [0.5] + [0.05] * 5),
    ),
    "throughput_drop: one slow interval after a save": (
        partial(ThroughputDropDetector, ThroughputDropSettings()),
        series("tokens_per_second", ([1000.0] * 19 + [100.0]) * 5),
    ),
}


@pytest.mark.parametrize("name", CLEAN)
def test_a_clean_series_raises_nothing(name):
    make_detector, steps = CLEAN[name]
    assert feed(make_detector(), steps) == []


@pytest.mark.parametrize(
    ("algorithm", "run"),
    [(Algorithm.SFT, healthy_sft), (Algorithm.GRPO, healthy_grpo)],
)
def test_the_diagnoser_is_quiet_on_a_healthy_synthetic_run(algorithm, run):
    assert feed(Diagnoser(DiagnosticsSettings(), algorithm), run(1000)) == []


def recorded(name: str) -> Steps:
    records = MetricsReader(LocalFileSource(Path(__file__).parent / "data" / name)).read().records
    return [(record.step, record.values) for record in records]


@pytest.mark.parametrize(
    ("name", "algorithm", "overrides"),
    [
        ("demo_sft.jsonl", Algorithm.SFT, {"slow_step": {"save_steps": 50, "eval_steps": 20}}),
        ("demo_dpo.jsonl", Algorithm.DPO, {}),
        ("demo_grpo.jsonl", Algorithm.GRPO, {}),
    ],
)
def test_real_demo_runs_raise_no_warning(name, algorithm, overrides):
    steps = recorded(name)
    assert len(steps) >= 40
    signals = feed(Diagnoser(DiagnosticsSettings.model_validate(overrides), algorithm), steps)
    # The demo model is trained from scratch: its first SFT loss is ln(vocabulary) ≈ 5.7, above a pretrained
    # model's 5.0, and initial_loss says so, as a hint. Nothing else is found.
    expected = [("initial_loss", 1, "high")] if algorithm == Algorithm.SFT else []
    assert [(signal.kind, signal.step, signal.params.get("rule")) for signal in signals] == expected


def test_the_diagnoser_runs_only_what_is_enabled_and_applies():
    settings = DiagnosticsSettings.model_validate({"slow_step": {"enabled": False}, "log_lines": {"enabled": False}})
    sft = {detector.kind for detector in Diagnoser(settings, Algorithm.SFT).detectors}
    grpo = {detector.kind for detector in Diagnoser(settings, Algorithm.GRPO).detectors}
    assert "slow_step" not in sft | grpo
    assert sft - grpo == {"loss_plateau"} and grpo - sft == {"reward_collapse"}
    assert Diagnoser(settings, Algorithm.SFT).observe_line("CUDA out of memory") is None


def faulty_grpo() -> Steps:
    """A GRPO run that goes wrong every way at once from step 151, and logs a NaN loss at step 201."""
    steps = healthy_grpo(300)
    for _, values in steps[150:]:
        values.update(kl=values["kl"] * 40, grad_norm=250.0, reward_std=0.0, reward_mean=0.0)
        values["tokens_per_second"] /= 4
    steps[200][1]["loss"] = math.nan
    return steps


def merged(steps: Steps) -> Steps:
    """The steps as the store keeps them: the records of one step upserted into one."""
    by_step: dict[int, dict[str, float]] = {}
    for step, values in steps:
        by_step.setdefault(step, {}).update(values)
    return sorted(by_step.items())


def test_the_same_steps_give_the_same_signals_streamed_in_any_batches_or_merged():
    steps = faulty_grpo()
    # TRL logs an evaluation as its own record after the step's training record.
    split = [record for step, values in steps for record in ((step, values), (step, {"eval_loss": 1.0 / step}))]
    whole = feed(Diagnoser(DiagnosticsSettings(), Algorithm.GRPO), merged(split))
    streamed = Diagnoser(DiagnosticsSettings(), Algorithm.GRPO)
    batches = [split[start : start + 37] for start in range(0, len(split), 37)]
    assert [signal for batch in batches for signal in feed(streamed, batch)] == whole
    assert {signal.kind for signal in whole} == {
        "kl_explosion",
        "reward_collapse",
        "grad_explosion",
        "non_finite",
        "throughput_drop",
    }


def test_state_stays_bounded_over_a_long_run():
    diagnoser = Diagnoser(DiagnosticsSettings(), Algorithm.SFT)
    for step, values in healthy_sft(100_000):
        diagnoser.observe(step, {**values, "kl": 0.01})
    windows = [
        (value, detector.settings)
        for detector in diagnoser.detectors
        for value in vars(detector).values()
        if isinstance(value, deque | RollingMedian)
    ]
    assert windows
    for window, settings in windows:
        if isinstance(window, RollingMedian):
            assert len(window) == len(window._sorted) == settings.window
        else:
            assert len(window) == window.maxlen


def test_the_rolling_median_is_the_median_of_its_window():
    rng = random.Random(3)
    median = RollingMedian(7)
    values = [rng.choice([rng.random(), 0.5]) for _ in range(200)]
    for index, value in enumerate(values):
        median.add(value)
        assert median.median == statistics.median(values[max(0, index - 6) : index + 1])


@pytest.mark.parametrize(
    ("line", "kind", "rule"),
    [
        ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", "oom", "gpu"),
        ("RuntimeError: MPS backend out of memory (MPS allocated: 1.2 GB)", "oom", "gpu"),
        ("ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.", "oom", "ray"),
        ("(raylet) 1 Workers (tasks / actors) killed due to memory pressure (OOM)", "oom", "ray"),
        ("Killed\n", "oom", "host"),
        ("[12345.6] Out of memory: Killed process 4242 (python)", "oom", "host"),
        (
            "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE) ran for "
            "600003 milliseconds before timing out.",
            "nccl_timeout",
            "watchdog",
        ),
        ("NCCL timeout in allgather", "nccl_timeout", "watchdog"),
        ("RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1275, unhandled system error", "fatal_error", "nccl_error"),
        ("torch.distributed.DistBackendError: NCCL error in: ../nccl.cpp", "fatal_error", "nccl_error"),
        ("Fatal Python error: Segmentation fault", "fatal_error", "segfault"),
        ("bash: line 1: 4242 Segmentation fault (core dumped) python train.py", "fatal_error", "segfault"),
    ],
)
def test_a_fatal_log_line_is_named(line, kind, rule):
    signal = LogDetector().observe_line(line, step=17)
    assert (signal.kind, signal.severity, signal.step, signal.params["rule"]) == (kind, "critical", 17, rule)
    assert signal.params["line"] == line.strip()


@pytest.mark.parametrize(
    "line",
    [
        "{'loss': 1.2, 'grad_norm': 0.8}",
        "A skilled worker killed the bug",
        "NCCL INFO Channel 00/02 : 0[0] -> 1[1] via P2P/IPC",
        "Saving model checkpoint to out/checkpoint-100",
    ],
)
def test_an_ordinary_log_line_is_not(line):
    assert LogDetector().observe_line(line, step=1) is None


def test_log_signals_are_dated_by_the_last_step_and_quote_a_bounded_line():
    diagnoser = Diagnoser(DiagnosticsSettings(), Algorithm.SFT)
    diagnoser.observe(42, {"loss": 1.0})
    signal = diagnoser.observe_line("CUDA out of memory. " + "x" * 1000)
    assert signal.step == 42 and len(signal.params["line"]) == 300
    assert diagnoser.observe_line("Killed", step=43).step == 43


def every_signal() -> list[Signal]:
    """One signal of each kind and rule: the planted faults' and the log lines'."""
    signals = [planted_signals(name)[0] for name in PLANTED]
    log = LogDetector()
    for line in ("CUDA out of memory", "ray.exceptions.OutOfMemoryError", "Killed", "NCCL timeout", "SIGSEGV"):
        signals.append(log.observe_line(line, step=3))
    signals.append(log.observe_line("RuntimeError: NCCL error", step=3))
    return signals


def test_every_kind_and_rule_has_a_text_and_every_text_a_detector():
    assert {(signal.kind, signal.params.get("rule")) for signal in every_signal()} == set(TEXTS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_signal_reads_in_both_languages(language):
    for signal in every_signal():
        text = describe(signal, language)
        assert text.message and 1 <= len(text.suggestions) <= 3
        assert "{" not in text.message + "".join(text.suggestions)


def test_a_message_says_what_and_where():
    signal = planted_signals("grad_norm above 100 for 5 steps")[0]
    assert describe(signal).message == "grad_norm above 100 for 5 steps since step 50 (max 412.3)"
    assert describe(signal, "zh-CN").message == "自第 50 步起连续 5 步 grad_norm 高于 100（最大 412.3）"
    assert describe(signal).suggestions[0] == "lower the learning rate (e.g. ×0.5)"
