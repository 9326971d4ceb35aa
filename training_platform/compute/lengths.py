"""What a job's samples are long, and so how many tokens its micro-batches hold: packed into token-budgeted
sequences, or padded to the longest sample of each micro-batch.

The lengths come from the dataset's statistics (GET /datasets/{id}/stats: `lengths`, the token-length
histogram of its text), as tokenized samples before truncation; training truncates them to `seq_len` (the job's
max_length). Packed (engines/trl/packing.py), a micro-batch is one sequence of about micro_batch × the mean
sample tokens (a longer sample alone) and no padding. Padded, a micro-batch of n samples drawn at random (TRL's
default sampler) is n rows of its longest sample: its expected length is E[max of n lengths], which the histogram
gives (each bin's lengths spread evenly over it); without a histogram a measured padding ratio gives it; without
either, every sample is counted at seq_len, which the speed's basis says.
"""

from pydantic import BaseModel, ConfigDict, Field, model_validator

MAX_BINS = 1000  # the statistics' histograms have 20 bins by default (datasets/stats.py)
# A sample as long as a million tokens is no training sample: the bound keeps every figure finite.
MAX_SAMPLE_TOKENS = 2**20


class LengthHistogram(BaseModel):
    """datasets/stats.py Histogram: edges[i] <= tokens < edges[i+1] for counts[i] samples."""

    model_config = ConfigDict(extra="forbid")

    edges: list[int] = Field(min_length=2, max_length=MAX_BINS + 1)
    counts: list[int] = Field(min_length=1, max_length=MAX_BINS)

    @model_validator(mode="after")
    def _shape(self) -> "LengthHistogram":
        if len(self.edges) != len(self.counts) + 1:
            raise ValueError(f"a histogram of {len(self.counts)} counts needs {len(self.counts) + 1} edges")
        if self.edges[0] < 0 or self.edges[-1] > MAX_SAMPLE_TOKENS + 1:
            raise ValueError(f"edges must lie within 0 and {MAX_SAMPLE_TOKENS + 1} tokens")
        if any(low >= high for low, high in zip(self.edges, self.edges[1:], strict=False)):
            raise ValueError("edges must increase")
        if any(count < 0 for count in self.counts) or not sum(self.counts):
            raise ValueError("counts must be at least 0, and not all 0")
        return self


class SampleLengths(BaseModel):
    """The training data's tokenized sample lengths (prompt and response together), as its statistics give them."""

    model_config = ConfigDict(extra="forbid")

    mean: float = Field(gt=0, le=MAX_SAMPLE_TOKENS, description="Mean tokens of a sample, before truncation.")
    histogram: LengthHistogram | None = Field(
        default=None, description="Their histogram (the statistics' `lengths[].histogram`): the padding it implies."
    )
    padding_ratio: float | None = Field(
        default=None,
        ge=0,
        lt=1,
        description="Share of padding in padded micro-batches, as a run measured it (its padding_ratio metric); "
        "used where no histogram is given.",
    )


def _segments(histogram: LengthHistogram, seq_len: int) -> list[tuple[int, int, float]]:
    """(low, high, share) of the lengths after truncation to seq_len: each bin's lengths spread evenly over it, the
    share of a bin beyond seq_len at seq_len itself (low = high)."""
    total, segments = sum(histogram.counts), []
    for low, high, count in zip(histogram.edges, histogram.edges[1:], histogram.counts, strict=False):
        share = count / total
        if count and low < seq_len:
            kept = share * (min(high, seq_len) - low) / (high - low)
            segments.append((low, min(high, seq_len), kept))
            share -= kept
        if share > 0:
            segments.append((seq_len, seq_len, share))
    return segments


def mean_tokens(lengths: SampleLengths, seq_len: int) -> float:
    """The mean sample after truncation to seq_len: the statistics' mean, less what the histogram says lies beyond
    seq_len (or the mean capped at seq_len without one)."""
    if lengths.histogram is None:
        return min(lengths.mean, seq_len)
    histogram, beyond = lengths.histogram, 0.0
    total = sum(histogram.counts)
    for low, high, count in zip(histogram.edges, histogram.edges[1:], histogram.counts, strict=False):
        if high > seq_len:  # the bin's lengths past seq_len, spread evenly: their mean excess over it
            start = max(low, seq_len)
            beyond += count / total * (high - start) / (high - low) * (start - seq_len + (high - start) / 2)
    return max(1.0, min(lengths.mean - beyond, seq_len))


def pack_tokens(micro_batch: int, seq_len: int, lengths: SampleLengths | None) -> int:
    """The largest packed micro-batch's tokens (engines/trl/packing.py): the budget, micro_batch samples' tokens, or
    the longest sample where it is longer (a pack of its own); samples as long as seq_len where the lengths are not
    known."""
    mean = mean_tokens(lengths, seq_len) if lengths is not None else seq_len
    return max(round(micro_batch * mean), longest_tokens(seq_len, lengths))


def padded_row_tokens(micro_batch: int, seq_len: int, lengths: SampleLengths | None) -> float | None:
    """The expected length of a padded micro-batch's rows (its longest sample), or None where nothing says it."""
    if lengths is None:
        return None
    if lengths.histogram is None:
        if lengths.padding_ratio is None:
            return None
        return min(seq_len, mean_tokens(lengths, seq_len) / (1 - lengths.padding_ratio))
    # E[max of n] = ∫ (1 − F(x)^n) dx, F rising linearly over each segment and flat between them.
    expected, below, reached = 0.0, 0.0, 0.0
    for low, high, share in _segments(lengths.histogram, seq_len):
        expected += (low - reached) * (1 - below**micro_batch)
        above = below + share
        if high > low:
            power = (above ** (micro_batch + 1) - below ** (micro_batch + 1)) / ((micro_batch + 1) * share)
            expected += (high - low) * (1 - power)
        below, reached = above, high
    return max(1.0, min(expected, seq_len))


def longest_tokens(seq_len: int, lengths: SampleLengths | None) -> int:
    """The longest padded row any micro-batch holds: seq_len, or the longest sample where the histogram is shorter."""
    if lengths is None or lengths.histogram is None:
        return seq_len
    last = max(i for i, count in enumerate(lengths.histogram.counts) if count)
    return max(1, min(seq_len, lengths.histogram.edges[last + 1] - 1))
