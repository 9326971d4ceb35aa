"""Deterministic downsampling that keeps what matters on a chart: each bucket's first, last, minimum and
maximum (so a one-step spike survives) and its first NaN (so a divergence stays visible).

The unit is a `Summary` of consecutive points. A raw point is a summary of one; the store keeps
summaries of fixed step buckets (rollups), so a million-step range is summarized from a few thousand
rows instead of a million.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

# A point's value; None stands for NaN (as in the database).
Value = float | None


@dataclass(frozen=True)
class Summary:
    count: int
    first_step: int
    first_value: Value
    last_step: int
    last_value: Value
    min_step: int | None = None
    min_value: float | None = None
    max_step: int | None = None
    max_value: float | None = None
    nan_step: int | None = None

    def points(self) -> list[tuple[int, Value]]:
        found = {self.first_step: self.first_value, self.last_step: self.last_value}
        if self.min_step is not None:
            found[self.min_step] = self.min_value
        if self.max_step is not None:
            found[self.max_step] = self.max_value
        if self.nan_step is not None:
            found[self.nan_step] = None
        return sorted(found.items())


def _is_nan(value: Value) -> bool:
    return value is None or math.isnan(value)


def summarize(points: Sequence[tuple[int, Value]]) -> Summary:
    """Summary of points in step order (at least one). One pass: it runs for every ingested batch."""
    low_step = low = high_step = high = nan_step = None
    for step, value in points:
        if value is None or value != value:  # NaN
            if nan_step is None:
                nan_step = step
        else:
            if low is None or value < low:
                low_step, low = step, value
            if high is None or value > high:
                high_step, high = step, value
    (first_step, first_value), (last_step, last_value) = points[0], points[-1]
    return Summary(
        count=len(points),
        first_step=first_step,
        first_value=None if _is_nan(first_value) else first_value,
        last_step=last_step,
        last_value=None if _is_nan(last_value) else last_value,
        min_step=low_step,
        min_value=low,
        max_step=high_step,
        max_value=high,
        nan_step=nan_step,
    )


def point_summary(step: int, value: Value) -> Summary:
    if _is_nan(value):
        return Summary(1, step, None, step, None, nan_step=step)
    return Summary(1, step, value, step, value, step, value, step, value)


def merge(summaries: Sequence[Summary]) -> Summary:
    """Summaries of consecutive step ranges, in order → one summary. Ties keep the earliest step."""
    first, last = summaries[0], summaries[-1]
    low = high = nan = None
    for item in summaries:
        if item.min_step is not None and (low is None or item.min_value < low.min_value):
            low = item
        if item.max_step is not None and (high is None or item.max_value > high.max_value):
            high = item
        if nan is None and item.nan_step is not None:
            nan = item
    return Summary(
        count=sum(item.count for item in summaries),
        first_step=first.first_step,
        first_value=first.first_value,
        last_step=last.last_step,
        last_value=last.last_value,
        min_step=low.min_step if low else None,
        min_value=low.min_value if low else None,
        max_step=high.max_step if high else None,
        max_value=high.max_value if high else None,
        nan_step=nan.nan_step if nan else None,
    )


def _grouped_points(items: Sequence, groups: int, summary_of) -> list[tuple[int, Value]]:
    size = len(items)
    result: list[tuple[int, Value]] = []
    for index in range(groups):
        chunk = items[index * size // groups : (index + 1) * size // groups]
        if chunk:
            result.extend(summary_of(chunk).points())
    return result


def _downsample(items: Sequence, count: int, max_points: int, summary_of) -> list[tuple[int, Value]]:
    for per_group in (4, 5):  # first/min/max/last, plus a NaN when a group has one
        points = _grouped_points(items, max(1, min(len(items), max_points // per_group)), summary_of)
        if len(points) <= max_points:
            return points
    # Fewer than five points asked for one group: keep the most telling ones.
    whole = summary_of(items)
    ranked = [(whole.nan_step, None), (whole.max_step, whole.max_value), (whole.min_step, whole.min_value),
              (whole.first_step, whole.first_value), (whole.last_step, whole.last_value)]  # fmt: skip
    kept: dict[int, Value] = {}
    for step, value in ranked:
        if step is not None and len(kept) < max_points:
            kept.setdefault(step, value)
    return sorted(kept.items())


def downsample_points(points: Sequence[tuple[int, Value]], max_points: int) -> list[tuple[int, Value]]:
    """At most `max_points` of the points (in step order), split into groups of equal count."""
    if len(points) <= max_points:
        return list(points)
    return _downsample(points, len(points), max_points, summarize)


def downsample_summaries(atoms: Sequence[Summary], max_points: int) -> list[tuple[int, Value]]:
    """At most `max_points` points from consecutive summaries, split into groups of equal count."""
    return _downsample(atoms, sum(atom.count for atom in atoms), max_points, merge)
