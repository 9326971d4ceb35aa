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
from training_platform.datasets.registration import DatasetRegistration, SameContent
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
        """Exact duplicates are always removed, whatever the method adds (a semantic index may not link two rows
        of the same text). A result with the content of a registered dataset (the same deduplication run again) is
        answered with that dataset, as nothing new to remove."""
        name = request.name or self._free_name(f"{dataset.name}-dedup")
        self.registration.check_name_free(name)

        def work(progress: ProgressCallback) -> dict:
            table = self.reader.raw_table(dataset)  # the new version keeps the file's own columns
            formatted = apply_format(
                DatasetTable(table.frame, [], table.num_rows), data_format_of(dataset), dataset.kind
            )
            texts = text_frame(formatted.frame, dataset.kind)
            groups = merged_groups(self._duplicate_groups(dataset, texts, request, progress))
            removed = {row for group in groups for row in group[1:]}
            if not removed:
                return {"removed": 0, "groups": 0, "dataset": None}
            kept = table.frame.filter(~pl.col(ROW).is_in(sorted(removed)))
            derivation = f"dedup {request.method}"
            if request.threshold:
                derivation += f" threshold {request.threshold}"
            derivation += f": kept {kept.height} of {table.frame.height}"
            found = {"removed": len(removed), "groups": len(groups)}
            try:
                derived = self.registration.derive(dataset, kept, name, derivation)
            except SameContent as same:
                return {**found, "dataset": same.existing.id, "name": same.existing.name, "existing": True}
            return {**found, "dataset": derived.id, "name": derived.name}

        return self.tasks.submit(dataset.id, "dedup", request.model_dump(), work)

    def _free_name(self, name: str) -> str:
        """`name`, or the first of `name-2`, `name-3`… not taken: a default name never refuses a run."""
        candidate, number = name, 1
        while self.registration.store.name_taken(candidate):
            number += 1
            candidate = f"{name}-{number}"
        return candidate

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
        findings = exact_duplicates(texts)
        if request.method == "near":
            findings += near_duplicates(texts, request.threshold or 0.8)
        elif request.method == "semantic":
            index = self.semantic.index_of(dataset)
            threshold = request.threshold or SEMANTIC_THRESHOLD
            findings += semantic_duplicates(texts, index, threshold, findings, progress)
        return [finding.rows for finding in findings]


def merged_groups(groups: list[list[int]]) -> list[list[int]]:
    """Groups sharing a row made one (an exact pair inside a near-duplicate group), each sorted, in order of their
    first row: one row of each is kept."""
    owner: dict[int, int] = {}
    merged: dict[int, set[int]] = {}
    for number, group in enumerate(groups):
        joined = {owner[row] for row in group if row in owner}
        rows = set(group).union(*(merged.pop(other) for other in joined))
        merged[number] = rows
        owner.update(dict.fromkeys(rows, number))
    return sorted((sorted(rows) for rows in merged.values()), key=lambda rows: rows[0])
