"""A run's aggregates: each metric key over every sample and per category, as its metric aggregates it (corpus BLEU
and chrF as sacrebleu computes them, the mean otherwise), with a percentile bootstrap confidence interval over the
samples (evaluation/metrics.py). A sample a metric could not score (a judge's unparseable verdict) is left out of
that metric's value and counted apart."""

from training_platform.contract.evaluation import Estimate, EvalParams, EvalResults, SampleRecord
from training_platform.evaluation.metrics import Sample, Scorer, interval


def aggregate(
    samples: list[Sample], records: list[SampleRecord], scorers: list[Scorer], params: EvalParams, seconds: float
) -> EvalResults:
    by_index = {record.index: record for record in records}
    scored = [sample for sample in samples if sample.index in by_index]
    categories = sorted({sample.category for sample in scored if sample.category is not None})
    groups = {category: [s for s in scored if s.category == category] for category in categories}
    return EvalResults(
        samples=len(scored),
        confidence=params.confidence,
        overall=_estimates(scored, by_index, scorers, params),
        categories={category: _estimates(group, by_index, scorers, params) for category, group in groups.items()},
        category_sizes={category: len(group) for category, group in groups.items()},
        seconds=round(seconds, 3),
    )


def _estimates(
    samples: list[Sample], by_index: dict[int, SampleRecord], scorers: list[Scorer], params: EvalParams
) -> dict[str, Estimate]:
    outputs = [by_index[sample.index].outputs for sample in samples]
    estimates = {}
    for scorer in scorers:
        for key in scorer.keys:
            values = [by_index[sample.index].values.get(key) for sample in samples]
            count = sum(value is not None for value in values)
            value = scorer.aggregate(key, samples, outputs, values) if count else None
            bounds = (
                interval(scorer, key, samples, outputs, values, params.bootstrap_resamples, params.confidence, seed=0)
                if count > 1
                else None
            )
            low, high = bounds if bounds else (None, None)
            estimates[key] = Estimate(value=value, low=low, high=high, count=count)
    return estimates
