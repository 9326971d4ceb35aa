"""Reading a registered dataset: its table as the file has it or in the platform's shape, pages of its rows, and
one row's loss preview.

Files are read only from under the data roots (common/paths.py), checked again at each read of a registered path
(a link may have been swapped since), and decoded only in the decoding worker (datasets/decoding.py), within the
read limits (datafiles/limits.py: ReadLimits) and the worker's (common/worker.py). Rows reach
the platform's shape through the format the dataset was registered with (`data_format_of`), unless a caller
names another.
"""

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from training_platform.common.paths import OUTSIDE_ROOTS, checked_path
from training_platform.common.worker import Worker
from training_platform.contract.data import DataFormat, LossTurns, ShareGptTags
from training_platform.contract.params import Algorithm, parse_params
from training_platform.datafiles.errors import DatasetFileError, OverLimitError
from training_platform.datafiles.layout import checked_data_path
from training_platform.datafiles.limits import ReadLimits
from training_platform.datafiles.table import DatasetTable
from training_platform.datasets.decoding import Source, check_tokenizer, preview_row, read_table, rows_page
from training_platform.datasets.preview import LossPreview, RowsPage
from training_platform.db.tables import RegisteredDataset
from training_platform.errors import ConflictError, FieldError, InvalidInputError, NotFoundError
from training_platform.models.service import ModelService

T = TypeVar("T")


class DatasetReader:
    """Every read of a file's rows, or of a tokenizer, runs in the decoding worker (datasets/decoding.py)."""

    def __init__(
        self, models: ModelService, path_roots: Sequence[Path], limits: ReadLimits, worker: Worker, previews: Worker
    ):
        self.models = models
        self.path_roots = path_roots
        self.limits = limits
        self.worker = worker
        self.previews = previews  # the decoding worker with transformers and TRL loaded (decoding.py)

    def stored_path(self, dataset: RegisteredDataset) -> Path:
        """A registered dataset's path, still under the data roots (the roots, or a link, may have changed)."""
        try:
            return checked_data_path(dataset.path, self.path_roots, "path")
        except InvalidInputError:
            raise ConflictError(
                f"dataset '{dataset.name}' cannot be read any more: its path is {OUTSIDE_ROOTS}"
            ) from None

    def source(self, dataset: RegisteredDataset) -> Source:
        return Source(self.stored_path(dataset), self.limits, dataset.split)

    def decode(
        self,
        dataset: RegisteredDataset,
        function: Callable[..., T],
        *args: Any,
        what: str,
        worker: Worker | None = None,
        **kwargs,
    ) -> T:
        """`function(source, *args)` run in the decoding worker (or `worker`) on the dataset's file; a file that no
        longer reads is a conflict, a file over a limit (the worker's or a read limit) refused naming the setting."""
        try:
            return (worker or self.worker).run(
                function,
                self.source(dataset),
                *args,
                field="dataset",
                what=f"{what} of dataset '{dataset.name}'",
                **kwargs,
            )
        except OverLimitError as error:
            raise InvalidInputError([FieldError("dataset", str(error))]) from None
        except DatasetFileError as error:
            raise ConflictError(f"dataset '{dataset.name}' cannot be read any more: {error}") from None

    def raw_table(self, dataset: RegisteredDataset) -> DatasetTable:
        """The rows as the file has them."""
        return self.decode(dataset, read_table, None, dataset.kind, what="reading the rows").table()

    def table(self, dataset: RegisteredDataset, data_format: DataFormat | None = None) -> DatasetTable:
        """The rows in the platform's shape, through the dataset's format (or `data_format`)."""
        data_format = data_format or data_format_of(dataset)
        return self.decode(dataset, read_table, data_format, dataset.kind, what="reading the rows").table()

    def rows(self, dataset: RegisteredDataset, offset: int, limit: int, normalised: bool = False) -> RowsPage:
        """Rows as the file has them, or (`normalised`) in the platform's shape, as the engines receive them."""
        data_format = data_format_of(dataset) if normalised else None
        found = self.decode(dataset, rows_page, offset, limit, data_format, dataset.kind, what="reading rows")
        return RowsPage(total=dataset.num_rows, offset=offset, rows=found)

    def preview(
        self,
        dataset: RegisteredDataset,
        row: int,
        tokenizer: str,
        max_length: int | None,
        train_on: LossTurns = "all_assistant",
    ) -> LossPreview:
        path = self.tokenizer_path(tokenizer)
        length = max_length or _default_max_length(dataset.kind)
        found = self.decode(
            dataset,
            preview_row,
            row,
            data_format_of(dataset),
            dataset.kind,
            path,
            length,
            train_on,
            what=f"previewing row {row} with the tokenizer {path}",
            worker=self.previews,
        )
        if found is None:
            raise NotFoundError(f"dataset '{dataset.name}' has no row {row} (rows are numbered from 1)")
        return found

    def tokenizer_path(self, tokenizer: str | None) -> str | None:
        """A tokenizer is a model's: a registered model (its name or id), or a model folder (one holding the
        config.json every model has) under the data roots; it is parsed only in the decoding worker."""
        if not tokenizer:
            return None
        try:
            path = self.models.get(tokenizer).path
        except NotFoundError:
            path = tokenizer
        checked = checked_path(path, self.path_roots, "tokenizer")
        if not (checked / "config.json").is_file():
            raise InvalidInputError(
                [
                    FieldError(
                        "tokenizer",
                        f"{tokenizer} is neither a registered model nor a model folder (a folder with config.json)",
                    )
                ]
            )
        return str(checked)

    def check_tokenizer(self, tokenizer: str | None) -> str | None:
        """The tokenizer's path once the worker has loaded it: a bad one is refused before work starts with it."""
        path = self.tokenizer_path(tokenizer)
        if path is not None:
            self.worker.run(check_tokenizer, path, field="tokenizer", what=f"loading the tokenizer {path}")
        return path


def data_format_of(dataset: RegisteredDataset) -> DataFormat:
    """The format a dataset was registered with."""
    return DataFormat(
        preset=dataset.preset,
        field_mapping=dataset.field_mapping,
        tags=ShareGptTags.model_validate(dataset.tags or {}),
        split=dataset.split,
        drop_columns=dataset.dropped_columns,
    )


def _default_max_length(kind: str) -> int:
    algorithm = Algorithm.DPO if kind == "dpo" else Algorithm.SFT
    return parse_params(algorithm, {}).max_length
