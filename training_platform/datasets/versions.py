"""New versions of a dataset: its rows deduplicated (a background task), or converted to the layout an engine reads
and optionally split in two.

A dataset is never changed in place: each result is registered as a new version in its parent's lineage, like any
dataset (registration.py: `derive`). A deduplicated version keeps the file's own columns and format; a converted one
holds the valid rows in the platform's own fields.
"""

import polars as pl

from training_platform.common.progress import ProgressCallback
from training_platform.datafiles.formats import schema_for, validate_table
from training_platform.datafiles.rows import apply_format, row_wise
from training_platform.datafiles.table import ROW, DatasetTable, text_frame
from training_platform.datasets.audit import SEMANTIC_THRESHOLD, exact_duplicates, near_duplicates, semantic_duplicates
from training_platform.datasets.convert import ConvertRequest, split, trl_layout
from training_platform.datasets.reading import DatasetReader, data_format_of
from training_platform.datasets.registration import DatasetRegistration
from training_platform.datasets.schemas import DedupRequest
from training_platform.datasets.semantic import SemanticSearch
from training_platform.db.tables import DatasetTask, RegisteredDataset
from training_platform.errors import FieldError, InvalidInputError
from training_platform.tasks import TaskRunner


class DatasetVersions:
    def __init__(
        self,
        reader: DatasetReader,
        registration: DatasetRegistration,
        semantic: SemanticSearch,
        tasks: TaskRunner,
    ):
        self.reader = reader
        self.registration = registration
        self.semantic = semantic
        self.tasks = tasks

    def start_dedup(self, dataset: RegisteredDataset, request: DedupRequest) -> DatasetTask:
        name = request.name or f"{dataset.name}-dedup"
        self.registration.check_name_free(name)

        def work(progress: ProgressCallback) -> dict:
            table = self.reader.raw_table(dataset)  # the new version keeps the file's own columns
            formatted = apply_format(
                DatasetTable(table.frame, [], table.num_rows), data_format_of(dataset), dataset.kind
            )
            texts = text_frame(formatted.frame, dataset.kind)
            groups = self._duplicate_groups(dataset, texts, request, progress)
            removed = {row for group in groups for row in group[1:]}
            if not removed:
                return {"removed": 0, "groups": 0, "dataset": None}
            kept = table.frame.filter(~pl.col(ROW).is_in(sorted(removed)))
            derivation = f"dedup {request.method}"
            if request.threshold:
                derivation += f" threshold {request.threshold}"
            derivation += f": kept {kept.height} of {table.frame.height}"
            derived = self.registration.derive(dataset, kept, name, derivation)
            return {"removed": len(removed), "groups": len(groups), "dataset": derived.id, "name": derived.name}

        return self.tasks.submit(dataset.id, "dedup", request.model_dump(), work)

    def convert(self, dataset: RegisteredDataset, request: ConvertRequest) -> list[RegisteredDataset]:
        if request.format == "verl":
            raise InvalidInputError([FieldError("format", "verl's layouts come with the verl engine; use 'trl'")])
        name = request.name or f"{dataset.name}-{request.format}"
        table = self.reader.table(dataset)
        invalid = {p.row for p in validate_table(table, schema_for(dataset.kind))}
        valid = table.frame.filter(~pl.col(ROW).is_in(sorted(invalid)))
        layout = trl_layout(valid, {} if row_wise(data_format_of(dataset)) else dataset.field_mapping)
        if any(dtype == pl.Object for dtype in layout.dtypes):
            raise InvalidInputError(
                [FieldError("format", "a column mixes value types (text and lists); Parquet needs one type per column")]
            )
        note = f"converted to the {request.format} layout ({len(invalid)} invalid rows left out)"
        if request.validation_fraction == 0:
            return [self.registration.derive(dataset, layout, name, note, platform_format=True)]
        train, validation = split(layout, request.validation_fraction, request.seed)
        parts = {"train": train, "validation": validation}
        for part in parts:
            self.registration.check_name_free(f"{name}-{part}")
        share = f"split {1 - request.validation_fraction:g}/{request.validation_fraction:g}, seed {request.seed}"
        return [
            self.registration.derive(dataset, frame, f"{name}-{part}", f"{note}; {share}: {part}", platform_format=True)
            for part, frame in parts.items()
        ]

    def _duplicate_groups(
        self, dataset: RegisteredDataset, texts: pl.DataFrame, request: DedupRequest, progress: ProgressCallback
    ) -> list[list[int]]:
        if request.method == "semantic":
            index = self.semantic.index_of(dataset)
            findings = semantic_duplicates(texts, index, request.threshold or SEMANTIC_THRESHOLD, [], progress)
        else:
            findings = exact_duplicates(texts)
            if request.method == "near":
                findings += near_duplicates(texts, request.threshold or 0.8)
        return [finding.rows for finding in findings]
