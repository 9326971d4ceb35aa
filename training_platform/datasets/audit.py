"""The quality audit: every check names the rows it found (1-based row numbers of the file).

Checks: format errors (unreadable rows, wrong types), empty or missing required fields,
exact duplicate prompts, near duplicates (MinHash), semantic duplicates (embeddings, optional), and length
outliers in tokens, with the thresholds used. Duplicate checks look at the prompt, which is what makes two
training rows teach the same thing.
"""

from typing import Literal

import numpy as np
import polars as pl
from pydantic import BaseModel, Field

from training_platform.common.progress import ProgressCallback, Steps, ignore_progress
from training_platform.datafiles.formats import validate_table
from training_platform.datafiles.io import RowProblem
from training_platform.datafiles.table import ROW, DatasetTable, text_frame, with_text
from training_platform.datasets.minhash import near_duplicate_groups
from training_platform.datasets.tokens import TokenCounter
from training_platform.datasets.vectors import SemanticIndex

FindingKind = Literal[
    "format_error", "empty_field", "exact_duplicate", "near_duplicate", "semantic_duplicate", "length_outlier"
]
_EMPTY_PREFIXES = ("missing required field '", "field '")
# Texts of (nearly) one length would otherwise make any other length an outlier: the fences stay at least
# a factor e^(3·0.25) ≈ 2.1 beyond the quartiles.
_MIN_LOG_SPREAD = 0.25


class AuditOptions(BaseModel):
    near_duplicates: bool = Field(default=True, description="Look for near-duplicate prompts (MinHash).")
    near_threshold: float = Field(default=0.8, gt=0, le=1, description="Jaccard similarity of word bigrams.")
    semantic: bool = Field(default=False, description="Look for semantic duplicates (embeds every prompt).")
    semantic_threshold: float = Field(default=0.9, gt=0, le=1, description="Cosine similarity of embeddings.")
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
    message: str
    rows: list[int]
    field: str | None = None
    details: dict = Field(default_factory=dict)


class AuditReport(BaseModel):
    kind: str
    num_rows: int
    tokenizer: str
    checks: list[str]
    summary: dict[str, int]  # rows found per finding kind
    findings: list[Finding]


def _count(rows: int) -> str:
    return "1 row" if rows == 1 else f"{rows} rows"


def _is_empty(message: str) -> bool:
    return message.endswith(" is empty") or message.startswith("missing required field")


def _field_named(message: str) -> str | None:
    for prefix in _EMPTY_PREFIXES:
        if message.startswith(prefix):
            return message[len(prefix) :].split("'", 1)[0]
    return None


def validation_findings(problems: list[RowProblem]) -> list[Finding]:
    """One finding per distinct reason, listing every row with that reason."""
    rows_by_reason: dict[str, list[int]] = {}
    for problem in problems:
        for reason in problem.message.split("; "):
            rows_by_reason.setdefault(reason, []).append(problem.row)
    findings = []
    for reason, rows in rows_by_reason.items():
        kind = "empty_field" if _is_empty(reason) else "format_error"
        message = f"{_count(len(rows))}: {reason}" if len(rows) > 1 else f"row {rows[0]}: {reason}"
        findings.append(Finding(kind=kind, message=message, rows=rows, field=_field_named(reason)))
    return findings


def exact_duplicates(texts: pl.DataFrame, field: str = "prompt") -> list[Finding]:
    groups = (
        with_text(texts, field)
        .group_by(field)
        .agg(pl.col(ROW).sort())
        .filter(pl.col(ROW).list.len() > 1)
        .sort(pl.col(ROW).list.first())
    )
    return [
        Finding(
            kind="exact_duplicate",
            field=field,
            rows=rows,
            message=f"{len(rows)} rows have the same {field}: {_excerpt(text)}",
        )
        for text, rows in groups.iter_rows()
    ]


def _excerpt(text: str, length: int = 80) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= length else flat[: length - 1] + "…")


def near_duplicates(texts: pl.DataFrame, threshold: float, field: str = "prompt") -> list[Finding]:
    found = near_duplicate_groups(texts[ROW].to_numpy(), texts[field], threshold)
    return [
        Finding(
            kind="near_duplicate",
            field=field,
            rows=rows,
            message=f"{len(rows)} rows have nearly the same {field} (word-bigram Jaccard ≥ {threshold})",
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
            Finding(
                kind="semantic_duplicate",
                field=field,
                rows=rows_in_group,
                message=f"{len(rows_in_group)} rows have {field}s with the same meaning (cosine ≥ {threshold})",
                details={"threshold": threshold, "lowest_similarity": score, "model": index.embedder.model_name},
            )
        )
    return findings


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
            findings.append(
                Finding(
                    kind="length_outlier",
                    field=field,
                    rows=outliers[ROW].to_list(),
                    message=f"{_count(outliers.height)} with a {field} {direction} than {bound:g} tokens ({rule})",
                    details={
                        "direction": direction,
                        "threshold_tokens": bound,
                        "rule": rule,
                        "tokenizer": counter.name,
                        "tokens": outliers["tokens"].to_list(),
                    },
                )
            )
    return findings


def _fences(tokens: np.ndarray, options: AuditOptions) -> tuple[tuple[float, str], tuple[float, str]]:
    """(bound, rule) below and above: a given limit, or Tukey's far-out fence on log(1 + tokens). Lengths vary by
    ratios (10 tokens is as far from 20 as 100 from 200), and on a log scale the short-side fence stays above 0."""
    logs = np.log1p(tokens)
    q1, q3 = np.percentile(logs, [25, 75])
    spread = max(q3 - q1, _MIN_LOG_SPREAD)
    k = options.outlier_factor
    low = (
        (options.min_tokens, "limit given")
        if options.min_tokens is not None
        else (round(float(np.expm1(q1 - k * spread)), 1), f"Tukey fence on log length, Q1 − {k:g}·IQR")
    )
    high = (
        (options.max_tokens, "limit given")
        if options.max_tokens is not None
        else (round(float(np.expm1(q3 + k * spread)), 1), f"Tukey fence on log length, Q3 + {k:g}·IQR")
    )
    return low, high


def audit_table(
    table: DatasetTable,
    kind: str,
    schema,
    options: AuditOptions,
    counter: TokenCounter,
    semantic: SemanticIndex | None = None,
    progress: ProgressCallback = ignore_progress,
) -> AuditReport:
    """Run every check on a table whose field mapping is applied; `semantic` is needed when options.semantic."""
    weights = {"validating": 1.0, "exact duplicates": 0.5, "near duplicates": 3.0, "lengths": 2.0}
    if options.semantic:
        weights["semantic duplicates"] = 12.0
    steps = Steps(progress, weights)
    steps.report("validating")
    findings = validation_findings(validate_table(table, schema))
    texts = text_frame(table.frame, kind)
    checks = ["format", "empty fields"]
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
    findings += duplicates + lengths
    summary: dict[str, int] = {}
    for finding in findings:
        summary[finding.kind] = summary.get(finding.kind, 0) + len(finding.rows)
    progress(1.0, "done")
    return AuditReport(
        kind=kind, num_rows=table.num_rows, tokenizer=counter.name, checks=checks, summary=summary, findings=findings
    )
