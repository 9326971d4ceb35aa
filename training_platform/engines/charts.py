"""The charts a job's page shows by default for its algorithm: the platform's canonical metrics (contract/metrics.py),
which every engine maps its trainer's keys onto, and each engine's own keys for what only its algorithms log
(declared beside its key map, engines/<name>/keys.py, as the trainer names them).

A page draws a chart once the job has logged one of its keys; the keys of one chart share an axis.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from training_platform.contract.params import Algorithm


@dataclass(frozen=True)
class Chart:
    # What the chart shows; the web UI's title is its `charts.<id>` text.
    id: str
    # Metric keys, one line each; a `*` stands for one part of a `/`-separated key (rewards/*/mean: one line per
    # reward function).
    keys: tuple[str, ...]
    # (mean, spread): the mean ± the spread drawn as dashed bounds around the mean's line.
    band: tuple[str, str] | None = None


LOSS = Chart("loss", ("loss", "policy_loss", "eval_loss"))
# After the loss and the algorithm's own charts, in this order.
CANONICAL_CHARTS = (
    Chart("reward", ("reward_mean", "reward_min", "reward_max"), band=("reward_mean", "reward_std")),
    Chart("kl", ("kl", "kl_max")),
    Chart("entropy", ("entropy",)),
    Chart("learning_rate", ("learning_rate",)),
    Chart("grad_norm", ("grad_norm", "critic_grad_norm")),
    Chart("throughput", ("tokens_per_second",)),
    Chart("step_time", ("step_time",)),
    Chart("memory", ("gpu_memory_gib",)),
    Chart("eval_accuracy", ("eval_accuracy",)),
)

EngineCharts = Mapping[Algorithm, tuple[Chart, ...]]


def default_charts(algorithm: Algorithm, engine_charts: Iterable[EngineCharts]) -> list[Chart]:
    """The loss, then the charts the engines declare for `algorithm` (one chart per id, with every engine's keys for
    it: a GRPO job's completion lengths are TRL's or verl's keys), then the canonical ones."""
    own: dict[str, Chart] = {}
    for charts in engine_charts:
        for chart in charts.get(algorithm, ()):
            known = own.setdefault(chart.id, chart)
            own[chart.id] = replace(known, keys=tuple(dict.fromkeys((*known.keys, *chart.keys))))
    return [LOSS, *own.values(), *CANONICAL_CHARTS]
