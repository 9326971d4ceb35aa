"""Downsampling keeps first, last, each group's extremes and NaNs; rollup summaries agree with raw points."""

import math
import random

from training_platform.metrics.downsample import (
    downsample_points,
    downsample_summaries,
    merge,
    point_summary,
    summarize,
)


def series(n: int, seed: int = 0) -> list[tuple[int, float]]:
    rng = random.Random(seed)
    return [(step, math.sin(step / 50) + rng.random() * 0.1) for step in range(n)]


def test_a_single_step_spike_survives_and_ends_are_kept():
    points = series(100_000)
    points[54_321] = (54_321, 1e6)
    points[77_777] = (77_777, -1e6)
    chosen = downsample_points(points, 2000)
    assert len(chosen) <= 2000
    assert (54_321, 1e6) in chosen and (77_777, -1e6) in chosen
    assert chosen[0] == points[0] and chosen[-1] == points[-1]
    assert chosen == sorted(chosen) and chosen == downsample_points(points, 2000)  # ordered, deterministic


def test_nan_stays_visible():
    points = series(10_000)
    points[5000] = (5000, None)
    chosen = downsample_points(points, 100)
    assert (5000, None) in chosen and len(chosen) <= 100


def test_small_series_are_returned_whole_and_tiny_budgets_keep_the_extremes():
    points = series(50)
    assert downsample_points(points, 50) == points
    points[10] = (10, 99.0)
    assert downsample_points(points, 1) == [(10, 99.0)]
    assert len(downsample_points(points, 3)) == 3


def test_summaries_of_buckets_merge_like_the_raw_points():
    points = series(5000, seed=3)
    points[1234] = (1234, None)
    buckets = [summarize(points[i : i + 256]) for i in range(0, len(points), 256)]
    assert merge(buckets) == summarize(points) == merge([point_summary(*p) for p in points])
    chosen = downsample_summaries(buckets, 40)
    whole = summarize(points)
    assert (whole.max_step, whole.max_value) in chosen and (whole.min_step, whole.min_value) in chosen
    assert (1234, None) in chosen and len(chosen) <= 40
