"""Comparing two to five completed runs of one dataset, sample by sample.

Samples are paired by their index in the dataset; only samples every run scored are compared (runs with different
`limit`s share their first samples). A metric's difference is the run's aggregate minus the baseline's over those
samples, as each metric aggregates (corpus BLEU, a mean otherwise), with a paired bootstrap interval: the same
resampled samples for both runs, so what the two share does not widen it. A sample is improved or regressed on the
chosen metric when its value moved at all, unchanged otherwise; a sample the metric could not score in either run
counts as unchanged.

Judge and custom metrics are compared by their mean: the server never calls a judge or imports user code to compare.
"""

from training_platform.contract.evaluation import EvalParams, EvalResults, SampleRecord, prompt_text
from training_platform.errors import FieldError, InvalidInputError
from training_platform.evals.schemas import (
    CategoryComparison,
    CompareRequest,
    ComparisonRead,
    Difference,
    Direction,
    MetricComparison,
    SampleComparison,
)
from training_platform.evaluation.metrics import MeanOfSamples, Sample, build_scorers, paired_difference

UNSCORED_HERE = ("judge", "custom")  # aggregated by their mean here (see above)


def compare_runs(
    names: list[str],
    baseline: str,
    params: list[EvalParams],
    results: list[EvalResults],
    records: list[list[SampleRecord]],
    request: CompareRequest,
) -> ComparisonRead:
    by_run = {name: {record.index: record for record in run} for name, run in zip(names, records, strict=True)}
    common = sorted(set.intersection(*(set(run) for run in by_run.values())))
    base = by_run[baseline]
    samples = [_sample(base[index]) for index in common]
    base_params = params[names.index(baseline)]
    keys = [k for k in _keys(base_params) if all(k in _keys(p) for p in params)]
    if not keys:
        raise InvalidInputError([FieldError("runs", "the runs share no metric")])
    metric = request.metric or keys[0]
    if metric not in keys:
        raise InvalidInputError([FieldError("metric", f"'{metric}' is not a metric of every run: {', '.join(keys)}")])
    scorers = {key: scorer for scorer in _scorers(base_params) for key in scorer.keys}
    seed, resamples, confidence = 0, base_params.bootstrap_resamples, base_params.confidence
    metrics = []
    for key in keys:
        differences = {}
        base_outputs, base_values = _column(base, common, key)
        for name in names:
            if name == baseline:
                continue
            outputs, values = _column(by_run[name], common, key)
            found = paired_difference(
                scorers[key], key, samples, base_outputs, base_values, outputs, values, resamples, confidence, seed
            )
            differences[name] = (
                Difference(value=found[0], low=found[1], high=found[2]) if found else Difference(value=None)
            )
        values = {
            name: result.overall[key] for name, result in zip(names, results, strict=True) if key in result.overall
        }
        metrics.append(MetricComparison(key=key, values=values, differences=differences))
    categories = sorted({category for result in results for category in result.categories})
    category_rows = [
        CategoryComparison(
            category=category,
            size=max(result.category_sizes.get(category, 0) for result in results),
            values={
                name: {key: e.value for key, e in result.categories.get(category, {}).items() if key in keys}
                for name, result in zip(names, results, strict=True)
            },
        )
        for category in categories
    ]
    compared = [_compared(index, by_run, names, baseline, metric) for index in common]
    counts = {
        name: {direction: sum(s.directions[name] == direction for s in compared) for direction in _DIRECTIONS}
        for name in names
        if name != baseline
    }
    kept = [s for s in compared if _kept(s, request)]
    return ComparisonRead(
        runs=names,
        baseline=baseline,
        metric=metric,
        dataset=base_params.dataset_name,
        metrics=metrics,
        categories=category_rows,
        counts=counts,
        total=len(kept),
        samples=kept[request.offset : request.offset + request.limit],
    )


_DIRECTIONS: tuple[Direction, ...] = ("improved", "regressed", "unchanged")


def _keys(params: EvalParams) -> list[str]:
    return [key for metric in params.metrics for key in metric.keys]


def _scorers(params: EvalParams) -> list:
    computed = [metric for metric in params.metrics if metric.name not in UNSCORED_HERE]
    return [*build_scorers(computed), *(MeanOfSamples(m) for m in params.metrics if m.name in UNSCORED_HERE)]


def _sample(record: SampleRecord) -> Sample:
    return Sample(index=record.index, prompt=record.prompt, references=record.references, category=record.category)


def _column(run: dict[int, SampleRecord], indices: list[int], key: str) -> tuple[list[list[str]], list[float | None]]:
    return [run[i].outputs for i in indices], [run[i].values.get(key) for i in indices]


def _compared(index: int, by_run: dict, names: list[str], baseline: str, metric: str) -> SampleComparison:
    base = by_run[baseline][index]
    directions = {}
    for name in names:
        if name != baseline:
            directions[name] = _direction(base.values.get(metric), by_run[name][index].values.get(metric))
    return SampleComparison(
        index=index,
        category=base.category,
        prompt=base.prompt,
        references=base.references,
        outputs={name: by_run[name][index].outputs for name in names},
        values={name: by_run[name][index].values for name in names},
        directions=directions,
    )


def _direction(before: float | None, after: float | None) -> Direction:
    if before is None or after is None or after == before:
        return "unchanged"
    return "improved" if after > before else "regressed"


def _kept(sample: SampleComparison, request: CompareRequest) -> bool:
    if request.category is not None and sample.category != request.category:
        return False
    if request.direction is not None and request.direction not in sample.directions.values():
        return False
    if request.search:
        needle = request.search.casefold()
        texts = [prompt_text(sample.prompt), *sample.references, *(o for out in sample.outputs.values() for o in out)]
        return any(needle in text.casefold() for text in texts)
    return True
