"""Groups of rows linked by pairwise similarity (near or semantic duplicates)."""

import numpy as np


def connected_components(count: int, left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """A component label for each of `count` items, given the edges left[i]—right[i].

    Min-label propagation with pointer jumping, all in numpy: a few passes over the edges even for a million items.
    """
    labels = np.arange(count, dtype=np.int64)
    if len(left) == 0:
        return labels
    left, right = left.astype(np.int64), right.astype(np.int64)
    while True:
        smaller = np.minimum(labels[left], labels[right])
        before = labels.copy()
        np.minimum.at(labels, left, smaller)
        np.minimum.at(labels, right, smaller)
        while not np.array_equal(labels, jumped := labels[labels]):
            labels = jumped
        if np.array_equal(labels, before):
            return labels


def groups_of(labels: np.ndarray) -> list[list[int]]:
    """The components with more than one item, as sorted lists of item indices, in order of their first item."""
    counts = np.bincount(labels, minlength=len(labels))
    items = np.flatnonzero(counts[labels] > 1)
    if len(items) == 0:
        return []
    order = items[np.argsort(labels[items], kind="stable")]
    parts = np.split(order, np.flatnonzero(np.diff(labels[order])) + 1)
    return sorted((part.tolist() for part in parts), key=lambda group: group[0])


def lowest_links(labels: np.ndarray, left: np.ndarray, similarity: np.ndarray) -> dict[int, float]:
    """Each component's lowest similarity among the edges (left[i]—…, similarity[i]) that linked it."""
    lowest: dict[int, float] = {}
    for label, value in zip(labels[left].tolist(), similarity.tolist(), strict=True):
        lowest[label] = min(lowest.get(label, 1.0), value)
    return lowest
