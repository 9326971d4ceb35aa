"""Distribution analysis: null rates per column, value counts of label fields, and
token-length histograms of the text fields, labelled with the tokenizer that counted them."""

from typing import Literal

import numpy as np
import polars as pl
from pydantic import BaseModel

from training_platform.contract.data import DataFormat
from training_platform.datafiles.presets import unused_columns
from training_platform.datafiles.table import ROW, DatasetTable, text_frame
from training_platform.datasets.tokens import TokenCounter

DEFAULT_LABEL_FIELDS = ("data_source", "category")


ValueType = Literal["text", "integer", "number", "boolean", "object", "list", "date", "empty", "mixed", "other"]


class ColumnStats(BaseModel):
    name: str
    dtype: str  # polars' own name of the column's type
    type: ValueType  # what its values are, in words a person reads (the UI translates them)
    item_type: ValueType | None = None  # a list's items
    nulls: int
    null_rate: float
    blanks: int  # empty or white-space-only text


class LabelValue(BaseModel):
    value: str | None
    count: int
    share: float


class LabelStats(BaseModel):
    field: str
    distinct: int
    values: list[LabelValue]  # the most frequent, largest first
    other_count: int  # rows whose value is not among `values`


class Histogram(BaseModel):
    edges: list[int]  # len(counts) + 1 whole-token bin edges; each bin holds edges[i] <= tokens < edges[i+1]
    counts: list[int]


class LengthStats(BaseModel):
    field: str
    count: int
    min: int
    max: int
    mean: float
    p50: float
    p90: float
    p99: float
    histogram: Histogram


class DatasetStats(BaseModel):
    num_rows: int
    readable_rows: int
    tokenizer: str
    columns: list[ColumnStats]
    labels: list[LabelStats]
    lengths: list[LengthStats]


def label_fields_of(table: DatasetTable, configured: list[str]) -> list[str]:
    return configured or [name for name in DEFAULT_LABEL_FIELDS if name in table.columns]


def unread_columns(columns: list[str], data_format: DataFormat, kind: str, configured_labels: list[str]) -> list[str]:
    """The file's columns that neither training (through the format) nor the label statistics read: what the
    audit reports, so that no column is left out without a word."""
    labels = set(configured_labels or DEFAULT_LABEL_FIELDS)
    return [name for name in unused_columns(columns, data_format, kind) if name not in labels]


def dataset_stats(
    table: DatasetTable, kind: str, label_fields: list[str], counter: TokenCounter, bins: int = 20, top: int = 20
) -> DatasetStats:
    frame = table.frame
    return DatasetStats(
        num_rows=table.num_rows,
        readable_rows=frame.height,
        tokenizer=counter.name,
        columns=[_column_stats(frame[name]) for name in table.columns],
        labels=[_label_stats(frame, name, top) for name in label_fields if name in frame.columns],
        lengths=_length_stats(text_frame(frame, kind), counter, bins),
    )


def value_type(dtype: pl.DataType) -> ValueType:
    """A column type in words: a struct is an object, a column of Python objects holds values of several types."""
    if dtype == pl.String or dtype == pl.Categorical:
        return "text"
    if dtype.is_integer():
        return "integer"
    if dtype.is_numeric():
        return "number"
    if dtype.is_temporal():
        return "date"
    if isinstance(dtype, pl.List | pl.Array):
        return "list"
    named = {pl.Boolean: "boolean", pl.Struct: "object", pl.Null: "empty", pl.Object: "mixed"}
    return next((words for kind, words in named.items() if dtype == kind or isinstance(dtype, kind)), "other")


def _column_stats(column: pl.Series) -> ColumnStats:
    nulls = column.null_count()
    blanks = int(column.str.strip_chars().eq("").sum()) if column.dtype == pl.String else 0
    items = column.dtype.inner if isinstance(column.dtype, pl.List | pl.Array) else None
    return ColumnStats(
        name=column.name,
        dtype=str(column.dtype),
        type=value_type(column.dtype),
        item_type=None if items is None else value_type(items),
        nulls=nulls,
        null_rate=round(nulls / len(column), 6) if len(column) else 0.0,
        blanks=blanks,
    )


def _label_stats(frame: pl.DataFrame, name: str, top: int) -> LabelStats:
    column = frame[name]
    if column.dtype == pl.Object or not (column.dtype.is_numeric() or column.dtype in (pl.String, pl.Boolean)):
        column = pl.Series(name, [None if v is None else str(v) for v in column.to_list()], dtype=pl.String)
    counts = column.cast(pl.String).value_counts(name="count").sort(["count", name], descending=[True, False])
    total = max(frame.height, 1)
    values = [
        LabelValue(value=value, count=count, share=round(count / total, 6))
        for value, count in counts.head(top).iter_rows()
    ]
    return LabelStats(
        field=name, distinct=counts.height, values=values, other_count=frame.height - sum(v.count for v in values)
    )


def whole_edges(low: int, high: int, bins: int) -> np.ndarray:
    """At most `bins` bins of one whole number of tokens each, from `low` to past `high`: a count of tokens has no
    fractions, and bins of equal width hold as many possible counts each."""
    width = -(-(high - low + 1) // bins)  # ceiling division
    count = -(-(high - low + 1) // width)
    return low + width * np.arange(count + 1, dtype=np.int64)


def _length_stats(texts: pl.DataFrame, counter: TokenCounter, bins: int) -> list[LengthStats]:
    result = []
    for field in texts.columns:
        if field == ROW:
            continue
        tokens = counter.count(texts[field]).drop_nulls().to_numpy()
        if len(tokens) == 0:
            continue
        counts, edges = np.histogram(tokens, bins=whole_edges(int(tokens.min()), int(tokens.max()), bins))
        p50, p90, p99 = np.percentile(tokens, [50, 90, 99])
        result.append(
            LengthStats(
                field=field,
                count=len(tokens),
                min=int(tokens.min()),
                max=int(tokens.max()),
                mean=round(float(tokens.mean()), 3),
                p50=float(p50),
                p90=float(p90),
                p99=float(p99),
                histogram=Histogram(edges=edges.tolist(), counts=counts.tolist()),
            )
        )
    return result
