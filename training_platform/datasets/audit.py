"""The quality audit: every check names the rows it found (1-based row numbers of the file).

Checks: format errors (unreadable rows, fields of a shape validation refuses), empty or missing required fields,
values of the wrong type in the columns validation leaves alone, DPO pairs whose chosen and rejected answers are
the same, exact duplicate prompts, near duplicates (MinHash), semantic duplicates (embeddings, optional), and length
outliers in tokens, with the thresholds used; and the columns nothing reads, as the caller names them. Duplicate
checks look at the prompt, which is what makes two training rows teach the same thing.
"""

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import polars as pl
from pydantic import BaseModel, Field

from training_platform.common.progress import ProgressCallback, Steps, ignore_progress
from training_platform.common.text import Language, Text
from training_platform.datafiles.errors import RowProblem
from training_platform.datafiles.formats import Schema, validate_table
from training_platform.datafiles.presets import tools_problem
from training_platform.datafiles.table import ROW, DatasetTable, text_frame, with_text
from training_platform.datasets.minhash import near_duplicate_groups
from training_platform.datasets.texts import problem_text, rows_by_problem
from training_platform.datasets.tokens import TokenCounter
from training_platform.datasets.vectors import SemanticIndex

FindingKind = Literal[
    "format_error",
    "empty_field",
    "wrong_type",
    "identical_pair",
    "exact_duplicate",
    "near_duplicate",
    "semantic_duplicate",
    "length_outlier",
    "unused_column",
]
_EMPTY_PREFIXES = ("missing required field '", "field '")
# Texts of (nearly) one length would otherwise make any other length an outlier: the fences stay at least
# a factor e^(3·0.25) ≈ 2.1 beyond the quartiles.
_MIN_LOG_SPREAD = 0.25
# Cosine similarity of two prompts' embeddings from which they are semantic duplicates: measured on paraphrase and
# related-but-different pairs (benchmarks/datasets/paraphrases.py; the pairs, precision and recall in
# docs/datasets.md), the highest threshold with the best precision and recall there.
SEMANTIC_THRESHOLD = 0.8


class AuditOptions(BaseModel):
    near_duplicates: bool = Field(default=True, description="Look for near-duplicate prompts (MinHash).")
    near_threshold: float = Field(
        default=0.8, gt=0, le=1, description="Jaccard similarity of word bigrams (character bigrams in Chinese)."
    )
    semantic: bool = Field(default=False, description="Look for semantic duplicates (embeds every prompt).")
    semantic_threshold: float = Field(
        default=SEMANTIC_THRESHOLD, gt=0, le=1, description="Cosine similarity of embeddings."
    )
    tokenizer: str | None = Field(
        default=None, max_length=4096, description="Model or tokenizer directory, or a registered model."
    )
    # Bounds (docs/security.md, "Limits"): counts compared in 64-bit columns.
    min_tokens: int | None = Field(
        default=None, ge=0, le=2**62, description="Shorter is an outlier; default: Tukey fence."
    )
    max_tokens: int | None = Field(
        default=None, ge=1, le=2**62, description="Longer is an outlier; default: Tukey fence."
    )
    outlier_factor: float = Field(
        default=3.0, gt=0, le=1000, description="k of the fences Q1 - k·IQR, Q3 + k·IQR (log length)."
    )


class Finding(BaseModel):
    kind: FindingKind
    message: str  # in the reader's language where the API answers it (`text` rendered), else English
    rows: list[int]
    field: str | None = None
    details: dict = Field(default_factory=dict)
    text: dict | None = None  # the message's code and parameters (common/text.py)

    @classmethod
    def saying(cls, text: Text, **values: Any) -> "Finding":
        return cls(message=text.render(), text=text.as_dict(), **values)

    def in_language(self, language: Language) -> "Finding":
        return (
            self
            if self.text is None
            else self.model_copy(update={"message": Text.from_dict(self.text).render(language)})
        )


class AuditReport(BaseModel):
    kind: str
    num_rows: int
    tokenizer: str
    checks: list[str]
    summary: dict[str, int]  # rows found per finding kind; for unused columns, how many columns
    findings: list[Finding]
    unused_columns: list[str] = []  # nothing reads them in the dataset's format


def _count(rows: int) -> str:
    return "1 row" if rows == 1 else f"{rows} rows"


def _where(rows: list[int]) -> Text:
    return Text.of("audit.row", row=rows[0]) if len(rows) == 1 else Text.of("audit.rows", count=len(rows))


def _is_empty(message: str) -> bool:
    return message.endswith(" is empty") or message.startswith("missing required field")


def _field_named(message: str) -> str | None:
    for prefix in _EMPTY_PREFIXES:
        if message.startswith(prefix):
            return message[len(prefix) :].split("'", 1)[0]
    return None


def validation_findings(problems: list[RowProblem]) -> list[Finding]:
    """One finding per distinct reason, listing every row with that reason."""
    findings = []
    for reason, rows in rows_by_problem(problems).items():
        kind = "empty_field" if _is_empty(reason) else "format_error"
        text = Text.of("audit.rows_problem", where=_where(rows).as_dict(), problem=problem_text(reason).as_dict())
        findings.append(Finding.saying(text, kind=kind, rows=rows, field=_field_named(reason)))
    return findings


@dataclass(frozen=True)
class _Shape:
    description: str
    fits_dtype: Callable[[pl.DataType], bool]  # every value of a column of this dtype fits
    fits: Callable[[Any], bool]


def _is_text(value: Any) -> bool:
    # A label or verl's `ability` may be a number: it is counted, or sent to verl, as its text.
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def _is_tools(value: Any) -> bool:
    # LLaMA-Factory keeps tool schemas as JSON text, which the presets parse (datafiles/presets.py, `_tools`).
    return isinstance(value, str) or tools_problem(value) is None


_TEXT = _Shape("text", lambda dtype: dtype in (pl.String, pl.Null) or dtype.is_numeric(), _is_text)
_TOOLS = _Shape(
    "a list of tool schema objects",
    lambda dtype: dtype in (pl.String, pl.Null) or (isinstance(dtype, pl.List) and isinstance(dtype.inner, pl.Struct)),
    _is_tools,
)
_ANY = _Shape("", lambda dtype: True, lambda value: True)
# The columns the platform reads with a shape of its own where validation does not check them: `system` opens the
# conversation (datafiles/presets.py), `data_source` and `ability` go to verl as text (engines/verl/data.py),
# `data_source` and `category` are counted as labels (datasets/stats.py), tool schemas reach the chat template
# (engines/trl/data.py).
_SHAPES = {**dict.fromkeys(("system", "data_source", "ability", "category"), _TEXT), "tools": _TOOLS}
_JSON_TYPES = {str: "text", list: "list", dict: "object"}


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return _JSON_TYPES.get(type(value), type(value).__name__)


def _described(value: Any) -> str:
    """A value's type for a message, a list's with the types of its items ("list of text")."""
    if isinstance(value, list) and value:
        return "list of " + "/".join(sorted({_json_type(item) for item in value}))
    return _json_type(value)


def _validated(schema: Schema | None) -> set[str]:
    """The fields validation checks row by row (datafiles/formats.py), those of the alternative schema included."""
    return set() if schema is None else {*schema.text_fields, *schema.optional} | _validated(schema.alternative)


def wrong_types(frame: pl.DataFrame, skip: set[str]) -> list[Finding]:
    """Per column outside `skip`: the rows whose value does not fit the column's shape (`_SHAPES`), or whose type is
    not the one most of the column's fitting values share (a label that is text in most rows and a number, a list or
    an object in a few); engines/trl/data.py makes one Arrow column of it, turning only numbers into text. Only a
    column whose dtype admits a misfit is read value by value: values that share no type make a column of Python
    objects (datafiles/table.py)."""
    findings = []
    for name in frame.columns:
        shape, column = _SHAPES.get(name, _ANY), frame[name]
        if name == ROW or name in skip or (column.dtype != pl.Object and shape.fits_dtype(column.dtype)):
            continue
        values = [
            (row, value) for row, value in zip(frame[ROW].to_list(), column.to_list(), strict=True) if value is not None
        ]
        usual = Counter(_json_type(value) for _, value in values if shape.fits(value)).most_common(1)
        wrong = [
            (row, value)
            for row, value in values
            if not shape.fits(value) or (usual and _json_type(value) != usual[0][0])
        ]
        if not wrong:
            continue
        rows = [row for row, _ in wrong]
        expected = shape.description or usual[0][0]
        found = Counter(_described(value) for _, value in wrong)
        listed = ", ".join(f"{what} ({_count(count)})" for what, count in found.items())
        text = Text.of("audit.wrong_type", where=_where(rows).as_dict(), field=name, expected=expected, found=listed)
        findings.append(
            Finding.saying(
                text, kind="wrong_type", field=name, rows=rows, details={"expected": expected, "found": dict(found)}
            )
        )
    return findings


def _squashed(name: str) -> pl.Expr:
    return pl.col(name).str.replace_all(r"\s+", " ").str.strip_chars()


def _tool_calls(answer: Any) -> list:
    if not isinstance(answer, list):
        return []
    return [message["tool_calls"] for message in answer if isinstance(message, dict) and message.get("tool_calls")]


def identical_pairs(frame: pl.DataFrame, texts: pl.DataFrame) -> list[Finding]:
    """Preference rows whose chosen and rejected answers are the same text, white space aside: a pair that
    prefers nothing."""
    rows = texts.filter((_squashed("chosen") == _squashed("rejected")) & (_squashed("chosen") != ""))[ROW].to_list()
    if rows and (frame["chosen"].dtype != pl.String or frame["rejected"].dtype != pl.String):
        # Chat answers of the same text may still call different tools (datafiles/formats.py: an assistant
        # message may carry tool_calls).
        answers = frame.filter(pl.col(ROW).is_in(rows)).select(ROW, "chosen", "rejected")
        rows = [row for row, chosen, rejected in answers.iter_rows() if _tool_calls(chosen) == _tool_calls(rejected)]
    if not rows:
        return []
    text = Text.of("audit.identical_pair", where=_where(rows).as_dict())
    return [Finding.saying(text, kind="identical_pair", field="chosen", rows=rows)]


def unused_column_findings(columns: Sequence[str]) -> list[Finding]:
    """One finding naming every column nothing reads, so that none is left out of training unsaid."""
    if not columns:
        return []
    names = ", ".join(f"'{name}'" for name in columns)
    text = Text.of("audit.unused_columns", count=len(columns), names=names)
    return [Finding.saying(text, kind="unused_column", rows=[], details={"columns": list(columns)})]


def exact_duplicates(texts: pl.DataFrame, field: str = "prompt") -> list[Finding]:
    groups = (
        with_text(texts, field)
        .group_by(field)
        .agg(pl.col(ROW).sort())
        .filter(pl.col(ROW).list.len() > 1)
        .sort(pl.col(ROW).list.first())
    )
    return [
        Finding.saying(
            Text.of("audit.exact_duplicate", count=len(rows), field=field, excerpt=_excerpt(text)),
            kind="exact_duplicate",
            field=field,
            rows=rows,
        )
        for text, rows in groups.iter_rows()
    ]


def _excerpt(text: str, length: int = 80) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= length else flat[: length - 1] + "…")


def near_duplicates(texts: pl.DataFrame, threshold: float, field: str = "prompt") -> list[Finding]:
    found = near_duplicate_groups(texts[ROW].to_numpy(), texts[field], threshold)
    return [
        Finding.saying(
            Text.of("audit.near_duplicate", count=len(rows), field=field, threshold=threshold),
            kind="near_duplicate",
            field=field,
            rows=rows,
            details={"threshold": threshold, "lowest_similarity": similarity},
        )
        for rows, similarity in zip(found.groups, found.similarity, strict=True)
    ]


def semantic_duplicates(
    texts: pl.DataFrame,
    index: SemanticIndex,
    threshold: float,
    already_grouped: list[Finding],
    progress: ProgressCallback,
    field: str = "prompt",
) -> list[Finding]:
    """Groups of prompts with the same meaning, leaving out groups that exact or near duplicates already explain."""
    present = with_text(texts, field)
    rows, values = present[ROW].to_list(), present[field].to_list()
    index.ensure(rows, values, lambda fraction, _message: progress(fraction * 0.8, "embedding"))
    groups, scores = index.groups(rows, threshold, lambda fraction, _message: progress(0.8 + 0.2 * fraction, "search"))
    cluster = {row: number for number, finding in enumerate(already_grouped) for row in finding.rows}
    findings = []
    for rows_in_group, score in zip(groups, scores, strict=True):
        if len({cluster.get(row, -row) for row in rows_in_group}) < 2:
            continue
        findings.append(
            Finding.saying(
                Text.of("audit.semantic_duplicate", count=len(rows_in_group), field=field, threshold=threshold),
                kind="semantic_duplicate",
                field=field,
                rows=rows_in_group,
                details={"threshold": threshold, "lowest_similarity": score, "model": index.embedder.model_name},
            )
        )
    return findings


def add_semantic_duplicates(
    report: AuditReport, texts: pl.DataFrame, index: SemanticIndex, threshold: float, progress: ProgressCallback
) -> AuditReport:
    """The report of an audit run without its semantic check (in the decoding worker, datasets/decoding.py), with
    it: the groups of prompts the exact and near duplicates do not already explain."""
    grouped = [finding for finding in report.findings if finding.kind in ("exact_duplicate", "near_duplicate")]
    found = semantic_duplicates(texts, index, threshold, grouped, progress)
    summary = dict(report.summary)
    for finding in found:
        summary[finding.kind] = summary.get(finding.kind, 0) + len(finding.rows)
    progress(1.0, "done")
    return report.model_copy(
        update={
            "findings": report.findings + found,
            "checks": [*report.checks, f"semantic duplicates (cosine ≥ {threshold})"],
            "summary": summary,
        }
    )


def length_outliers(
    texts: pl.DataFrame, counter: TokenCounter, options: AuditOptions, fields: list[str]
) -> list[Finding]:
    findings = []
    for field in fields:
        present = with_text(texts, field)
        counts = pl.DataFrame({ROW: present[ROW], "tokens": counter.count(present[field])})
        if counts.height == 0:
            continue
        (low, low_rule), (high, high_rule) = _fences(counts["tokens"].to_numpy(), options)
        for direction, condition, bound, rule in (
            ("shorter", pl.col("tokens") < low, low, low_rule),
            ("longer", pl.col("tokens") > high, high, high_rule),
        ):
            outliers = counts.filter(condition)
            if outliers.height == 0:
                continue
            text = Text.of(
                f"audit.{direction}", count=outliers.height, field=field, bound=f"{bound:g}", rule=rule.as_dict()
            )
            findings.append(
                Finding.saying(
                    text,
                    kind="length_outlier",
                    field=field,
                    rows=outliers[ROW].to_list(),
                    details={
                        "direction": direction,
                        "threshold_tokens": bound,
                        "rule": rule.render(),
                        "tokenizer": counter.name,
                        "tokens": outliers["tokens"].to_list(),
                    },
                )
            )
    return findings


def _fences(tokens: np.ndarray, options: AuditOptions) -> tuple[tuple[float, Text], tuple[float, Text]]:
    """(bound, rule) below and above: a given limit, or Tukey's far-out fence on log(1 + tokens). Lengths vary by
    ratios (10 tokens is as far from 20 as 100 from 200), and on a log scale the short-side fence stays above 0."""
    logs = np.log1p(tokens)
    q1, q3 = np.percentile(logs, [25, 75])
    spread = max(q3 - q1, _MIN_LOG_SPREAD)
    k = options.outlier_factor
    low = (
        (options.min_tokens, Text.of("audit.limit_given"))
        if options.min_tokens is not None
        else (round(float(np.expm1(q1 - k * spread)), 1), Text.of("audit.fence_low", k=f"{k:g}"))
    )
    high = (
        (options.max_tokens, Text.of("audit.limit_given"))
        if options.max_tokens is not None
        else (round(float(np.expm1(q3 + k * spread)), 1), Text.of("audit.fence_high", k=f"{k:g}"))
    )
    return low, high


def audit_table(
    table: DatasetTable,
    kind: str,
    schema: Schema,
    options: AuditOptions,
    counter: TokenCounter,
    semantic: SemanticIndex | None = None,
    progress: ProgressCallback = ignore_progress,
    unused_columns: Sequence[str] = (),
) -> AuditReport:
    """Run every check on a table whose field mapping is applied; `semantic` is needed when options.semantic.
    `unused_columns` are those nothing reads in the dataset's format: reported, and not checked for types."""
    weights = {"validating": 1.0, "exact duplicates": 0.5, "near duplicates": 3.0, "lengths": 2.0}
    if options.semantic:
        weights["semantic duplicates"] = 12.0
    steps = Steps(progress, weights)
    steps.report("validating")
    findings = validation_findings(validate_table(table, schema))
    findings += wrong_types(table.frame, _validated(schema) | set(unused_columns))
    texts = text_frame(table.frame, kind)
    checks = ["format", "empty fields", "types"]
    if {"chosen", "rejected"} <= set(texts.columns):
        findings += identical_pairs(table.frame, texts)
        checks.append("identical chosen and rejected")
    steps.report("exact duplicates")
    duplicates = exact_duplicates(texts)
    checks.append("exact duplicates")
    if options.near_duplicates:
        steps.report("near duplicates")
        duplicates += near_duplicates(texts, options.near_threshold)
        checks.append(f"near duplicates (Jaccard ≥ {options.near_threshold})")
    steps.report("lengths")
    lengths = length_outliers(texts, counter, options, [name for name in texts.columns if name != ROW])
    checks.append(f"length outliers ({counter.name})")
    if options.semantic:
        if semantic is None:
            raise ValueError("a semantic audit needs a vector index")
        steps.report("semantic duplicates")
        duplicates += semantic_duplicates(
            texts, semantic, options.semantic_threshold, duplicates, steps.within("semantic duplicates")
        )
        checks.append(f"semantic duplicates (cosine ≥ {options.semantic_threshold})")
    findings += duplicates + lengths + unused_column_findings(unused_columns)
    summary: dict[str, int] = {}
    for finding in findings:
        if finding.rows:  # rows per kind: unused columns name no row, and are counted as columns below
            summary[finding.kind] = summary.get(finding.kind, 0) + len(finding.rows)
    if unused_columns:
        summary["unused_column"] = len(unused_columns)
    progress(1.0, "done")
    return AuditReport(
        kind=kind,
        num_rows=table.num_rows,
        tokenizer=counter.name,
        checks=checks,
        summary=summary,
        findings=findings,
        unused_columns=list(unused_columns),
    )
