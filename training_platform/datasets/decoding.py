"""Every parse of a dataset's file, or of a tokenizer a request names, runs in the decoding worker, under hard limits
of memory, CPU time and wall clock (common/worker.py, docs/security.md): these are the functions it runs, each
answering with what the request shows (a page of rows, statistics, an audit's report, one row's preview; a
registration's verdict is registration.py's `inspect_file`), never more than the worker's result budget. The
datasets service decodes nothing of a dataset file in the server itself; the limits of `ReadLimits`
(datafiles/limits.py) hold inside the worker as well.
"""

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from training_platform.common.progress import ProgressCallback
from training_platform.common.worker import Worker, WorkerLimits
from training_platform.contract.data import DataFormat, LossTurns
from training_platform.datafiles.errors import RowProblem
from training_platform.datafiles.formats import schema_for
from training_platform.datafiles.limits import ReadLimits
from training_platform.datafiles.presets import RowFormatError, normalise_row
from training_platform.datafiles.readers import iter_rows
from training_platform.datafiles.rows import apply_format
from training_platform.datafiles.table import DatasetTable, load_table, text_frame
from training_platform.datasets.audit import AuditOptions, AuditReport, audit_table
from training_platform.datasets.preview import LossPreview, RowOut, loss_preview, row_out
from training_platform.datasets.stats import DatasetStats, dataset_stats, label_fields_of
from training_platform.datasets.tokens import load_tokenizer, token_counter
from training_platform.engines.trl.settings import CONFIG_MODULES as TRL_CONFIG_MODULES
from training_platform.errors import FieldError, InvalidInputError

# What the fork server imports once, so that a call costs a fork: the readers, statistics and audits through these
# modules. Not transformers, which imports torch (seconds, and hundreds of MiB the fork server would hold for good):
# token counts read a tokenizer.json with the tokenizers library alone (tokens.py).
PRELOAD = ["training_platform.datasets.decoding", "training_platform.datasets.registration"]
# A loss preview renders the row with the model's chat template and tokenizes it as the trainer does (TRL's
# functions, transformers' tokenizers), and a job's TRL engine settings are checked by building TRL's config: a
# worker of its own preloads them, started at the first use, so a use costs a fork rather than seconds of imports,
# and a server that never needs them never loads them.
PREVIEW_PRELOAD = [*PRELOAD, "transformers.models.auto.tokenization_auto", "trl.data_utils", *TRL_CONFIG_MODULES]


def decoding_worker(limits: WorkerLimits) -> Worker:
    return Worker(limits, PRELOAD)


def preview_worker(limits: WorkerLimits) -> Worker:
    return Worker(limits, PREVIEW_PRELOAD, start_now=False)


@dataclass(frozen=True)
class Source:
    """A dataset file or folder to read, one split of it, within the read limits."""

    path: Path
    limits: ReadLimits
    split: str | None = None

    def table(self) -> DatasetTable:
        return load_table(self.path, self.limits, split=self.split)


# ---- tables --------------------------------------------------------------------------------------------------


@dataclass
class PortableTable:
    """A DatasetTable as it crosses from the worker: a column of Python objects (values of no one type) as a list,
    the others as polars series."""

    columns: list[tuple[str, object]]
    problems: list[RowProblem] = field(default_factory=list)
    num_rows: int = 0

    @classmethod
    def of(cls, table: DatasetTable) -> "PortableTable":
        columns = [
            (name, column.to_list() if column.dtype == pl.Object else column)
            for name, column in zip(table.frame.columns, table.frame.get_columns(), strict=True)
        ]
        return cls(columns, table.problems, table.num_rows)

    def table(self) -> DatasetTable:
        series = [
            column if isinstance(column, pl.Series) else pl.Series(name, column, dtype=pl.Object)
            for name, column in self.columns
        ]
        return DatasetTable(pl.DataFrame(series), self.problems, self.num_rows)


def read_table(source: Source, data_format: DataFormat | None, kind: str) -> PortableTable:
    """The rows as the file has them, or (a format given) in the platform's shape."""
    table = source.table()
    return PortableTable.of(apply_format(table, data_format, kind) if data_format is not None else table)


# ---- reading ---------------------------------------------------------------------------------------------------


def rows_page(source: Source, offset: int, limit: int, data_format: DataFormat | None, kind: str) -> list[RowOut]:
    """`limit` rows from `offset`, as the file has them or (a format given) in the platform's shape."""
    found = []
    for number, row in iter_rows(source.path, offset + 1, source.limits, split=source.split):
        if data_format is not None and not isinstance(row, RowProblem):
            try:
                row = normalise_row(row, data_format, kind)
            except RowFormatError as error:
                row = RowProblem(number, str(error))
        found.append(row_out(number, row))
        if len(found) == limit:
            break
    return found


def preview_row(
    source: Source,
    row: int,
    data_format: DataFormat,
    kind: str,
    tokenizer_path: str,
    max_length: int,
    train_on: LossTurns,
) -> LossPreview | None:
    """One row as the model sees it; None when the dataset has no such row."""
    found = next(iter_rows(source.path, row, source.limits, split=source.split), None)
    if found is None or found[0] != row:
        return None
    if isinstance(found[1], RowProblem):
        raise InvalidInputError([FieldError("row", found[1].message, row=row)])
    try:
        platform_row = normalise_row(found[1], data_format, kind)
    except RowFormatError as error:
        raise InvalidInputError([FieldError("row", str(error), row=row)]) from None
    tokenizer = load_tokenizer(tokenizer_path)
    return loss_preview(row, platform_row, kind, tokenizer, tokenizer_path, max_length, train_on)


def check_tokenizer(tokenizer_path: str) -> str:
    """The tokenizer loaded, to refuse one that cannot be before work is started with it; its name."""
    return token_counter(tokenizer_path).name


# ---- analysis --------------------------------------------------------------------------------------------------


def compute_stats(
    source: Source, data_format: DataFormat, kind: str, label_fields: list[str], tokenizer_path: str | None, bins: int
) -> DatasetStats:
    table = apply_format(source.table(), data_format, kind)
    counter = token_counter(tokenizer_path)
    return dataset_stats(table, kind, label_fields_of(table, label_fields), counter, bins)


def run_audit(
    source: Source,
    data_format: DataFormat,
    kind: str,
    options: AuditOptions,
    tokenizer_path: str | None,
    unused: list[str],
    progress: ProgressCallback,
) -> tuple[AuditReport, pl.DataFrame | None]:
    """Every check but the semantic one, whose embedder is the server's: for that, the texts of the rows come back
    too (the worker's result budget bounds them)."""
    table = apply_format(source.table(), data_format, kind)
    counter = token_counter(tokenizer_path)
    without_semantic = options.model_copy(update={"semantic": False})
    report = audit_table(
        table, kind, schema_for(kind), without_semantic, counter, None, progress, unused_columns=unused
    )
    return report, text_frame(table.frame, kind) if options.semantic else None
