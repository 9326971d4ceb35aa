"""Registration: the one way a dataset enters the catalogue, from a file on disk, an upload, or rows derived from
another dataset (a new version).

Registration is all-or-nothing: a file is read and validated before anything is written, and its database row
and its final place in the data directory are made in one step (the row is flushed, the file moved, then the
transaction committed; a failure after the move takes the file back out). A name is registered once, and so is a
content: a file whose hash a dataset already has is refused, naming that dataset.
"""

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from training_platform.common.changes import Change, report
from training_platform.common.text import Text
from training_platform.common.worker import Worker
from training_platform.contract.data import ShareGptTags
from training_platform.datafiles.errors import DatasetFileError, RowProblem
from training_platform.datafiles.formats import schema_for, validate_table
from training_platform.datafiles.layout import checked_data_path, data_files, dataset_format, dataset_splits
from training_platform.datafiles.limits import ReadLimits
from training_platform.datafiles.rows import apply_format
from training_platform.datafiles.table import ROW
from training_platform.datasets.convert import suffix_for, write_frame
from training_platform.datasets.decoding import Source
from training_platform.datasets.detection import requested_format
from training_platform.datasets.schemas import DatasetFields, DatasetRegister, DatasetUpload
from training_platform.datasets.storage import DatasetStorage, StagedUpload, content_hash, plain_file_name
from training_platform.datasets.store import DatasetStore
from training_platform.datasets.texts import grouped_problem_errors, text_error
from training_platform.db.tables import RegisteredDataset
from training_platform.errors import ConflictError, FieldError, InvalidInputError

REPORT_ROUTE = "/api/v1/datasets/reports"


class SameContent(ConflictError):
    """Rows derived from a dataset are, byte for byte, a dataset already registered (`existing`)."""

    def __init__(self, existing: RegisteredDataset):
        self.existing = existing
        super().__init__(f"the same content is already registered as dataset '{existing.name}' ({existing.id})")


class DatasetRegistration:
    def __init__(
        self,
        store: DatasetStore,
        storage: DatasetStorage,
        error_limit: int,
        path_roots: Sequence[Path],
        limits: ReadLimits,
        worker: Worker,
    ):
        self.store = store
        self.storage = storage
        self.error_limit = error_limit
        self.path_roots = path_roots
        self.limits = limits
        self.worker = worker

    def register(self, request: DatasetRegister) -> RegisteredDataset:
        """A file or directory already on disk, registered where it is."""
        path = checked_data_path(request.path, self.path_roots, "path")
        self.check_name_free(request.name)
        checked = self._inspect(path, request.kind, request, "path", path.name, split=request.split)
        dataset = RegisteredDataset(
            id=uuid.uuid4().hex,
            name=request.name,
            path=str(path),
            kind=request.kind,
            file_format=dataset_format(path, split=request.split),
            size_bytes=_size(path, request.split),
            content_hash=self._unique_hash(content_hash(path, request.split)),
            splits=list(dataset_splits(path)) if path.is_dir() else [],
            source="path",
            **checked,
        )
        return self._insert(dataset)

    def receive(self, filename: str) -> StagedUpload:
        """A staged upload to stream the file into (a context manager): discarded on leaving unless
        `finish_upload` moved it into place."""
        return self.storage.stage(filename)

    def check_upload(self, request: DatasetUpload) -> None:
        """What can be refused before a byte of the file arrives."""
        self.check_name_free(request.name)
        plain_file_name(request.filename)

    def finish_upload(self, staged: StagedUpload, request: DatasetUpload) -> RegisteredDataset:
        digest = staged.finish()
        if staged.size == 0:
            raise InvalidInputError([text_error("file", Text.of("dataset.file_empty", file=request.filename))])
        self.check_name_free(request.name)
        existing_hash = self._unique_hash(digest)
        checked = self._inspect(staged.path, request.kind, request, "file", request.filename)
        dataset_id = uuid.uuid4().hex
        final = self.storage.final_path(dataset_id, request.filename)
        dataset = RegisteredDataset(
            id=dataset_id,
            name=request.name,
            path=str(final),
            kind=request.kind,
            file_format=dataset_format(staged.path),
            size_bytes=staged.size,
            content_hash=existing_hash,
            source="upload",
            original_filename=request.filename,
            **checked,
        )
        return self._insert(dataset, staged.path)

    def derive(
        self,
        parent: RegisteredDataset,
        frame: pl.DataFrame,
        name: str,
        derivation: str,
        platform_format: bool = False,
    ) -> RegisteredDataset:
        """A new version of `parent` holding `frame`'s rows: in the parent's format, or in the platform's own
        (`platform_format`: the rows were converted)."""
        self.check_name_free(name)
        suffix = suffix_for(frame)
        staged = self.storage.new_file(suffix)
        try:
            write_frame(frame, staged)
            digest = self._unique_hash(content_hash(staged))
            version = self.store.latest_version(parent.lineage_id)
            dataset_id = uuid.uuid4().hex
            dataset = RegisteredDataset(
                id=dataset_id,
                name=name,
                path=str(self.storage.final_path(dataset_id, f"{name}{suffix}")),
                kind=parent.kind,
                file_format=suffix.lstrip("."),
                num_rows=frame.height,
                size_bytes=staged.stat().st_size,
                description=parent.description,
                content_hash=digest,
                source="derived",
                columns=[c for c in frame.columns if c != ROW],
                field_mapping={} if platform_format else parent.field_mapping,
                preset=None if platform_format else parent.preset,
                tags=None if platform_format else parent.tags,
                dropped_columns=[] if platform_format else parent.dropped_columns,
                label_fields=parent.label_fields,
                parent_id=parent.id,
                lineage_id=parent.lineage_id,
                version=(version or parent.version) + 1,
                derivation=derivation,
            )
            return self._insert(dataset, staged)
        finally:
            staged.unlink(missing_ok=True)

    def check_name_free(self, name: str) -> None:
        if self.store.name_taken(name):
            raise ConflictError(f"a dataset named '{name}' is already registered")

    def problem_errors(
        self, problems: list[RowProblem], values: dict, file_name: str, field: str = "file"
    ) -> list[FieldError]:
        """The problems grouped, one error per distinct problem (datasets/texts.py), then where all of them are;
        `values` are the file's (`Inspection.values`)."""
        report_id = uuid.uuid4().hex
        self.storage.write_report(
            report_id,
            {
                "file": file_name,
                "num_rows": values["num_rows"],
                "num_invalid": len(problems),
                "problems": [{"row": p.row, "message": p.message} for p in problems],
            },
        )
        return grouped_problem_errors(
            field, problems, values["num_rows"], values["columns"], f"{REPORT_ROUTE}/{report_id}", self.error_limit
        )

    def _inspect(
        self, path: Path, kind: str, fields: DatasetFields, field: str, shown_as: str, split: str | None = None
    ) -> dict:
        """The file read and checked in the decoding worker (datasets/decoding.py); the values the dataset row gets,
        or the rows that fail, reported."""
        source = Source(path, self.limits, split)
        inspection = self.worker.run(
            inspect_file, source, kind, fields, field, shown_as, field=field, what=f"reading {shown_as}"
        )
        if inspection.problems and not fields.allow_invalid_rows:
            errors = self.problem_errors(inspection.problems, inspection.values, shown_as, field)
            no_preset = inspection.no_preset
            raise InvalidInputError(errors + ([text_error("preset", no_preset)] if no_preset else []))
        return inspection.values

    def _unique_hash(self, digest: str) -> str:
        if (existing := self.store.by_content_hash(digest)) is not None:
            raise SameContent(existing)
        return digest

    def _insert(self, dataset: RegisteredDataset, staged: Path | None = None) -> RegisteredDataset:
        """The row, with `staged` moved to the dataset's path in the same step when the platform keeps the file."""
        dataset.lineage_id = dataset.lineage_id or dataset.id
        if staged is None:
            dataset = self.store.add(dataset)
        else:
            dataset = self.store.add(
                dataset,
                place_files=lambda: self.storage.place(staged, Path(dataset.path)),
                remove_files=lambda: self.storage.remove_dataset_files(dataset.id),
            )
        report(Change("dataset", dataset.id, dataset.name, "registered", created=True))
        return dataset


@dataclass
class Inspection:
    """What registration learns of a file in the worker: the dataset row's values, the rows that fail the kind's
    schema, and why no preset was chosen when detection chose none."""

    values: dict
    problems: list[RowProblem]
    no_preset: Text | None


def inspect_file(source: Source, kind: str, fields: DatasetFields, field: str, shown_as: str) -> Inspection:
    """Run in the decoding worker: the file's rows read, the field configuration and rows checked through the data
    format (a preset chosen when asked to detect one)."""
    try:
        table = source.table()
    except DatasetFileError as error:
        raise InvalidInputError([FieldError(field, str(error).replace(source.path.name, shown_as))]) from None
    if table.num_rows == 0:
        raise InvalidInputError([text_error(field, Text.of("dataset.file_no_rows", file=shown_as))])
    check_fields(table.columns, fields.field_mapping, fields.label_fields, fields.drop_columns)
    data_format, no_preset = requested_format(table, kind, fields, field)
    raw_columns = table.columns
    table = apply_format(table, data_format, kind)
    problems = validate_table(table, schema_for(kind))
    values = dict(
        num_rows=table.num_rows,
        num_invalid=len(problems),
        columns=raw_columns,
        field_mapping=fields.field_mapping,
        preset=data_format.preset,
        tags=stored_tags(data_format.tags),
        split=fields.split,
        label_fields=fields.label_fields,
        dropped_columns=fields.drop_columns,
        description=fields.description,
    )
    return Inspection(values, problems, no_preset)


def stored_tags(tags: ShareGptTags) -> dict | None:
    """A dataset's sharegpt tags as its row keeps them: none when they are the defaults."""
    return None if tags == ShareGptTags() else tags.model_dump()


def check_fields(columns: list[str], mapping: dict[str, str], labels: list[str], dropped: Sequence[str] = ()) -> None:
    """Refused unless each source of the field mapping is a column (or a dotted path into one), each label field
    a column or a mapped field, and each dropped column a column."""
    errors = []
    available = ", ".join(columns) or "none"

    def no_column(field: str, column: str) -> FieldError:
        return text_error(field, Text.of("dataset.no_column", column=column, columns=available))

    for target, source in mapping.items():
        if source not in columns and source.split(".", 1)[0] not in columns:
            errors.append(no_column(f"field_mapping.{target}", source))
    for index, label in enumerate(labels):
        if label not in columns and label not in mapping:
            errors.append(no_column(f"label_fields.{index}", label))
    for index, column in enumerate(dropped):
        if column not in columns:
            errors.append(no_column(f"drop_columns.{index}", column))
    if errors:
        raise InvalidInputError(errors)


def _size(path: Path, split: str | None = None) -> int:
    return sum(file.stat().st_size for file in data_files(path, split=split))
