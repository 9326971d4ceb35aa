"""Reading a registered dataset: its table as the file has it or in the platform's shape, pages of its rows, and
one row's loss preview.

Files are read only from under the data roots (common/paths.py), checked again at each read of a registered path
(a link may have been swapped since), and within the read limits (datafiles/limits.py: ReadLimits). Rows reach
the platform's shape through the format the dataset was registered with (`data_format_of`), unless a caller
names another.
"""

from collections.abc import Sequence
from pathlib import Path

from training_platform.common.paths import OUTSIDE_ROOTS, checked_path
from training_platform.contract.data import DataFormat, LossTurns, ShareGptTags
from training_platform.contract.params import Algorithm, parse_params
from training_platform.datafiles.errors import DatasetFileError, RowProblem
from training_platform.datafiles.layout import checked_data_path
from training_platform.datafiles.limits import ReadLimits
from training_platform.datafiles.presets import RowFormatError, normalise_row
from training_platform.datafiles.readers import iter_rows
from training_platform.datafiles.rows import apply_format
from training_platform.datafiles.table import DatasetTable, load_table
from training_platform.datasets.preview import LossPreview, RowsPage, loss_preview, row_out
from training_platform.datasets.tokens import load_tokenizer
from training_platform.db.tables import RegisteredDataset
from training_platform.errors import ConflictError, FieldError, InvalidInputError, NotFoundError
from training_platform.models.service import ModelService


class DatasetReader:
    def __init__(self, models: ModelService, path_roots: Sequence[Path], limits: ReadLimits):
        self.models = models
        self.path_roots = path_roots
        self.limits = limits

    def stored_path(self, dataset: RegisteredDataset) -> Path:
        """A registered dataset's path, still under the data roots (the roots, or a link, may have changed)."""
        try:
            return checked_data_path(dataset.path, self.path_roots, "path")
        except InvalidInputError:
            raise ConflictError(
                f"dataset '{dataset.name}' cannot be read any more: its path is {OUTSIDE_ROOTS}"
            ) from None

    def raw_table(self, dataset: RegisteredDataset) -> DatasetTable:
        """The rows as the file has them."""
        path = self.stored_path(dataset)
        try:
            return load_table(path, self.limits, split=dataset.split)
        except DatasetFileError as error:
            raise ConflictError(f"dataset '{dataset.name}' cannot be read any more: {error}") from None

    def table(self, dataset: RegisteredDataset, data_format: DataFormat | None = None) -> DatasetTable:
        """The rows in the platform's shape, through the dataset's format (or `data_format`)."""
        return apply_format(self.raw_table(dataset), data_format or data_format_of(dataset), dataset.kind)

    def rows(self, dataset: RegisteredDataset, offset: int, limit: int, normalised: bool = False) -> RowsPage:
        """Rows as the file has them, or (`normalised`) in the platform's shape, as the engines receive them."""
        data_format = data_format_of(dataset)
        found = []
        for number, row in iter_rows(self.stored_path(dataset), offset + 1, self.limits, split=dataset.split):
            if normalised and not isinstance(row, RowProblem):
                try:
                    row = normalise_row(row, data_format, dataset.kind)
                except RowFormatError as error:
                    row = RowProblem(number, str(error))
            found.append(row_out(number, row))
            if len(found) == limit:
                break
        return RowsPage(total=dataset.num_rows, offset=offset, rows=found)

    def preview(
        self,
        dataset: RegisteredDataset,
        row: int,
        tokenizer: str,
        max_length: int | None,
        train_on: LossTurns = "all_assistant",
    ) -> LossPreview:
        found = next(iter_rows(self.stored_path(dataset), row, self.limits, split=dataset.split), None)
        if found is None or found[0] != row:
            raise NotFoundError(f"dataset '{dataset.name}' has no row {row} (rows are numbered from 1)")
        if isinstance(found[1], RowProblem):
            raise InvalidInputError([FieldError("row", found[1].message, row=row)])
        try:
            platform_row = normalise_row(found[1], data_format_of(dataset), dataset.kind)
        except RowFormatError as error:
            raise InvalidInputError([FieldError("row", str(error), row=row)]) from None
        path = self.tokenizer_path(tokenizer)
        length = max_length or _default_max_length(dataset.kind)
        return loss_preview(row, platform_row, dataset.kind, load_tokenizer(path), path, length, train_on)

    def tokenizer_path(self, tokenizer: str | None) -> str | None:
        """A registered model's directory, or the path as given; under the data roots either way."""
        if not tokenizer:
            return None
        try:
            path = self.models.get(tokenizer).path
        except NotFoundError:
            path = tokenizer
        return str(checked_path(path, self.path_roots, "tokenizer"))


def data_format_of(dataset: RegisteredDataset) -> DataFormat:
    """The format a dataset was registered with."""
    return DataFormat(
        preset=dataset.preset,
        field_mapping=dataset.field_mapping,
        tags=ShareGptTags.model_validate(dataset.tags or {}),
        split=dataset.split,
    )


def _default_max_length(kind: str) -> int:
    algorithm = Algorithm.DPO if kind == "dpo" else Algorithm.SFT
    return parse_params(algorithm, {}).max_length
