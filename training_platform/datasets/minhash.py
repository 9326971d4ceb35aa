"""Near-duplicate texts by MinHash and locality-sensitive hashing, vectorised over the whole column.

A text becomes the set of its word bigrams (lower-cased, punctuation dropped; a one-word text is its word). Chinese
and Japanese put no spaces between words, so there each character counts as a word and the shingles are character
bigrams: one character changed in a sentence then changes as many shingles as one word changed in English does
(two), where a whole unspaced sentence read as one word would match only its identical copies.
Two texts are near duplicates when the Jaccard similarity of those sets reaches the threshold. Candidate pairs
come from 32 MinHash values (multiply-shift hashing of 64-bit shingle hashes) in 8 bands of 4; the MinHash
estimate discards the clearly dissimilar candidates and the rest are checked exactly on their shingle sets, so
a templated but clean dataset (many pairs at similarity 0.6) gets no false positives from estimation noise.
A per-row library (datasketch) spends tens of microseconds per row in Python; here every step over all rows
is one numpy or polars operation, which is what makes a million-row audit take seconds.
"""

from dataclasses import dataclass

import numpy as np
import polars as pl

from training_platform.datasets.grouping import connected_components, groups_of, lowest_links

NUM_PERM = 32
BANDS = 8
ROWS_PER_BAND = NUM_PERM // BANDS
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
# Buckets this small are compared pair by pair; a larger bucket (texts sharing a very common band) only against
# its first member, which keeps the work linear in the number of rows.
_ALL_PAIRS_UP_TO = 32
_CHUNK_KEYS = 1 << 16
# Candidates estimated this far below the threshold are dropped without the exact check (at 32 values the
# estimate's standard deviation is at most 0.09, so a pair truly at the threshold is kept 99% of the time).
_ESTIMATE_MARGIN = 0.2
# A word: a run of letters and digits, except that each Han, Hiragana or Katakana character is one on its own.
_UNSPACED = r"\p{Han}\p{Hiragana}\p{Katakana}"
WORD = rf"[{_UNSPACED}]|[\w--{_UNSPACED}]+"


@dataclass(frozen=True)
class NearDuplicates:
    groups: list[list[int]]  # row numbers, each group sorted, groups in order of their first row
    similarity: list[float]  # the lowest estimated Jaccard similarity that linked each group


def near_duplicate_groups(rows: np.ndarray, texts: pl.Series, threshold: float, seed: int = 0) -> NearDuplicates:
    """Groups of rows whose texts are near duplicates but not all identical (identical ones are exact duplicates)."""
    frame = pl.DataFrame({"row": rows, "text": texts}).drop_nulls("text")
    words = frame["text"].str.to_lowercase().str.extract_all(WORD)
    keyed = frame.with_columns(words.list.join(" ").alias("key")).filter(pl.col("key") != "")
    # One sketch per distinct normalised text (its rows travel with it), counting its distinct raw spellings.
    distinct = (
        keyed.group_by("key").agg(pl.col("row"), pl.col("text").n_unique().alias("n")).sort(pl.col("row").list.first())
    )
    if distinct.height == 0:
        return NearDuplicates([], [])
    hashes, starts = _shingles(distinct["key"], seed)
    signatures = _signatures(hashes, starts, seed)
    left, right = _candidate_pairs(signatures)
    left, right, similarity = _similar(left, right, signatures, hashes, starts, threshold)
    labels = connected_components(distinct.height, left, right)
    linked_at = lowest_links(labels, left, similarity)
    groups, lowest = [], []
    # A text alone in its component is still a group when its rows differ only in case or punctuation.
    alone = np.bincount(labels, minlength=len(labels))[labels] == 1
    variants = np.flatnonzero(alone & (distinct["n"].to_numpy() > 1))
    components = groups_of(labels) + [[int(key)] for key in variants]
    for keys in components:
        groups.append(sorted(row for rows_of_key in distinct["row"].gather(keys).to_list() for row in rows_of_key))
        lowest.append(linked_at.get(int(labels[keys[0]]), 1.0))
    order = sorted(range(len(groups)), key=lambda i: groups[i][0])
    return NearDuplicates([groups[i] for i in order], [round(lowest[i], 3) for i in order])


def _shingles(keys: pl.Series, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The shingle hashes of every key, in key order, and where each key's shingles start (one past the end last)."""
    exploded = pl.DataFrame({"k": pl.int_range(0, len(keys), eager=True, dtype=pl.UInt32), "w": keys.str.split(" ")})
    exploded = exploded.explode("w")
    owner = exploded["k"].to_numpy()
    word = exploded["w"].hash(seed).to_numpy()
    # Position i holds the bigram (i, i+1) when both words belong to the same text, or the word itself when
    # the text has only that one word; every other position is dropped.
    next_is_same = np.r_[owner[1:] == owner[:-1], False]
    previous_is_same = np.r_[False, next_is_same[:-1]]
    bigram = np.r_[word[:-1] * _GOLDEN + word[1:], np.uint64(0)]
    alone = ~next_is_same & ~previous_is_same
    keep = next_is_same | alone
    starts = np.searchsorted(owner[keep], np.arange(len(keys) + 1))
    return np.where(next_is_same, bigram, word)[keep], starts


def _signatures(hashes: np.ndarray, starts: np.ndarray, seed: int) -> np.ndarray:
    """A (keys × NUM_PERM) matrix of MinHash values, computed a cache-sized chunk of keys at a time."""
    keys = len(starts) - 1
    generator = np.random.default_rng(seed)
    multipliers = generator.integers(1, 2**63, NUM_PERM, dtype=np.uint64) | np.uint64(1)
    offsets = generator.integers(0, 2**63, NUM_PERM, dtype=np.uint64)
    signatures = np.empty((keys, NUM_PERM), dtype=np.uint32)
    shift = np.uint64(32)
    for low in range(0, keys, _CHUNK_KEYS):
        high = min(low + _CHUNK_KEYS, keys)
        chunk = hashes[starts[low] : starts[high]]
        local_starts = starts[low:high] - starts[low]
        permuted = np.empty(len(chunk), dtype=np.uint64)
        for index in range(NUM_PERM):
            np.multiply(chunk, multipliers[index], out=permuted)
            np.add(permuted, offsets[index], out=permuted)
            np.right_shift(permuted, shift, out=permuted)
            signatures[low:high, index] = np.minimum.reduceat(permuted, local_starts)
    return signatures


def _candidate_pairs(signatures: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct pairs of keys that share at least one band."""
    left_parts, right_parts = [], []
    for band in range(BANDS):
        bucket = np.zeros(len(signatures), dtype=np.uint64)
        for column in range(band * ROWS_PER_BAND, (band + 1) * ROWS_PER_BAND):
            bucket = bucket * _GOLDEN + signatures[:, column]
        order = np.argsort(bucket, kind="stable")
        ordered = bucket[order]
        shared = np.r_[ordered[1:] == ordered[:-1], False] | np.r_[False, ordered[1:] == ordered[:-1]]
        members, values = order[shared], ordered[shared]
        if len(members) == 0:
            continue
        first = np.r_[True, values[1:] != values[:-1]]
        group = np.cumsum(first) - 1
        sizes = np.bincount(group)
        large = sizes[group] > _ALL_PAIRS_UP_TO
        heads = members[first][group]
        left_parts.append(members[large & ~first])
        right_parts.append(heads[large & ~first])
        small = np.flatnonzero(~large)
        for distance in range(1, min(_ALL_PAIRS_UP_TO, len(small))):
            later = small[distance:]
            matches = group[small[:-distance]] == group[later]
            if not matches.any():
                break
            left_parts.append(members[small[:-distance][matches]])
            right_parts.append(members[later[matches]])
    if not left_parts:
        return np.array([], dtype=np.int64), np.array([], dtype=np.int64)
    left, right = np.concatenate(left_parts), np.concatenate(right_parts)
    pairs = np.unique(np.stack([np.minimum(left, right), np.maximum(left, right)], axis=1), axis=0)
    return pairs[:, 0], pairs[:, 1]


def _similar(
    left: np.ndarray,
    right: np.ndarray,
    signatures: np.ndarray,
    hashes: np.ndarray,
    starts: np.ndarray,
    threshold: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The candidate pairs whose exact Jaccard similarity reaches the threshold, with that similarity."""
    estimate = (signatures[left] == signatures[right]).mean(axis=1)
    plausible = estimate >= threshold - _ESTIMATE_MARGIN
    left, right = left[plausible], right[plausible]
    exact = np.array([_jaccard(hashes, starts, a, b) for a, b in zip(left.tolist(), right.tolist(), strict=True)])
    keep = exact >= threshold if len(exact) else np.array([], dtype=bool)
    return left[keep], right[keep], exact[keep]


def _jaccard(hashes: np.ndarray, starts: np.ndarray, a: int, b: int) -> float:
    first, second = np.unique(hashes[starts[a] : starts[a + 1]]), np.unique(hashes[starts[b] : starts[b + 1]])
    common = len(np.intersect1d(first, second, assume_unique=True))
    return common / (len(first) + len(second) - common)
