"""The datasets service: register and upload, versions, rows and previews, analysis, vectors, conversion.

Registration is all-or-nothing: a file is read and validated before anything is written, and its database row
and its final place in the data directory are made in one step (the row is flushed, the file moved, then the
transaction committed; a failure after the move takes the file back out).

Files are read only from under the data roots (common/paths.py), checked again at each read of a registered path
(a link may have been swapped since), and within the read limits (datafiles/io.py: ReadLimits).
"""

import uuid
from collections.abc import Sequence
from pathlib import Path

import polars as pl

from training_platform.common.changes import Change, report
from training_platform.common.paths import OUTSIDE_ROOTS, checked_path
from training_platform.common.progress import ProgressCallback
from training_platform.contract.data import DataFormat, LossTurns, ShareGptTags
from training_platform.contract.params import Algorithm, parse_params
from training_platform.datafiles.formats import row_problem, row_problem_errors, schema_for, validate_table
from training_platform.datafiles.io import (
    DATASET_REFERENCE,
    DatasetFileError,
    ReadLimits,
    RowProblem,
    checked_data_path,
    data_files,
    dataset_format,
    dataset_splits,
    iter_rows,
)
from training_platform.datafiles.kinds import KIND_FIELDS
from training_platform.datafiles.presets import (
    PRESETS,
    Detection,
    RowFormatError,
    detect_presets,
    no_preset_fits_message,
    normalise_row,
    preset_problem,
    unused_columns,
)
from training_platform.datafiles.rows import apply_format, row_wise, sample_rows
from training_platform.datafiles.table import ROW, DatasetTable, load_table, text_frame, with_text
from training_platform.datasets.audit import (
    AuditOptions,
    AuditReport,
    audit_table,
    exact_duplicates,
    near_duplicates,
    semantic_duplicates,
)
from training_platform.datasets.convert import ConvertRequest, split, suffix_for, trl_layout, write_frame
from training_platform.datasets.preview import LossPreview, RowsPage, loss_preview, row_out
from training_platform.datasets.schemas import (
    AuditTaskRead,
    DatasetFields,
    DatasetKindRead,
    DatasetRead,
    DatasetRegister,
    DatasetUpdate,
    DatasetUpload,
    DedupRequest,
    DetectRequest,
    DetectResult,
    PresetTried,
    TaskRead,
)
from training_platform.datasets.stats import DatasetStats, dataset_stats, label_fields_of, unread_columns
from training_platform.datasets.storage import DatasetStorage, StagedUpload, content_hash, plain_file_name
from training_platform.datasets.store import DatasetStore
from training_platform.datasets.tokens import load_tokenizer, token_counter
from training_platform.datasets.vectors import Embedder, SearchHit, SemanticIndex, VectorStore
from training_platform.db.tables import DatasetTask, RegisteredDataset
from training_platform.errors import ConflictError, FieldError, InvalidInputError, NotFoundError
from training_platform.models.service import ModelService
from training_platform.rewards import RewardSpec
from training_platform.tasks import TaskRunner

REPORT_ROUTE = "/api/v1/datasets/reports"
PREVIEW_FINDINGS = 50
PREVIEW_ROWS = 20
DETECTION_ROWS = 100  # the rows a format is detected from


class DatasetService:
    def __init__(
        self,
        store: DatasetStore,
        storage: DatasetStorage,
        models: ModelService,
        vectors: VectorStore,
        embedder: Embedder,
        error_limit: int,
        path_roots: Sequence[Path],
        limits: ReadLimits,
    ):
        self.store = store
        self.storage = storage
        self.models = models
        self.vectors = vectors
        self.embedder = embedder
        self.error_limit = error_limit
        self.path_roots = path_roots
        self.limits = limits
        self.tasks = TaskRunner(store.db, DatasetTask, owner="dataset_id")

    def recover(self) -> None:
        """At server start (one server per home): uploads and tasks cut off by the last stop are gone."""
        self.storage.clear_incoming()
        self.tasks.recover()

    def close(self) -> None:
        self.tasks.shutdown()
        self.vectors.close()

    # ---- registration ----------------------------------------------------------------------------------

    def register(self, request: DatasetRegister) -> DatasetRead:
        """A file or directory already on disk, registered where it is."""
        path = checked_data_path(request.path, self.path_roots, "path")
        self._check_name_free(request.name)
        table = self._read(path, "path", split=request.split)
        checked = self._check(table, request.kind, request, path.name, "path")
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
        return _dataset_read(self._insert(dataset))

    def receive(self, filename: str) -> StagedUpload:
        """A staged upload to stream the file into (a context manager): discarded on leaving unless
        `finish_upload` moved it into place."""
        return self.storage.stage(filename)

    def check_upload(self, request: DatasetUpload) -> None:
        """What can be refused before a byte of the file arrives."""
        self._check_name_free(request.name)
        plain_file_name(request.filename)

    def finish_upload(self, staged: StagedUpload, request: DatasetUpload) -> DatasetRead:
        digest = staged.finish()
        if staged.size == 0:
            raise InvalidInputError([FieldError("file", f"{request.filename} is empty (0 bytes)")])
        self._check_name_free(request.name)
        existing_hash = self._unique_hash(digest)
        table = self._read(staged.path, "file", shown_as=request.filename)
        checked = self._check(table, request.kind, request, request.filename, "file")
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
        return _dataset_read(self._insert(dataset, staged.path))

    def _stored_path(self, dataset: RegisteredDataset) -> Path:
        """A registered dataset's path, still under the data roots (the roots, or a link, may have changed)."""
        try:
            return checked_data_path(dataset.path, self.path_roots, "path")
        except InvalidInputError:
            raise ConflictError(
                f"dataset '{dataset.name}' cannot be read any more: its path is {OUTSIDE_ROOTS}"
            ) from None

    def _read(self, path: Path, field: str, shown_as: str | None = None, split: str | None = None) -> DatasetTable:
        try:
            table = load_table(path, self.limits, split=split)
        except DatasetFileError as error:
            message = str(error).replace(path.name, shown_as) if shown_as else str(error)
            raise InvalidInputError([FieldError(field, message)]) from None
        if table.num_rows == 0:
            raise InvalidInputError([FieldError(field, f"{shown_as or path.name} has no rows")])
        return table

    def _check(self, table: DatasetTable, kind: str, fields: DatasetFields, file_name: str, field: str) -> dict:
        """Field configuration and rows checked, through the data format (a preset chosen when asked to detect one);
        the values the dataset row gets from them."""
        self._check_fields(table.columns, fields.field_mapping, fields.label_fields)
        data_format, no_preset = self._data_format(table, kind, fields)
        raw_columns = table.columns
        table = apply_format(table, data_format, kind)
        problems = validate_table(table, schema_for(kind))
        if problems and not fields.allow_invalid_rows:
            errors = self._problem_errors(problems, table.num_rows, file_name, field)
            raise InvalidInputError(errors + ([FieldError("preset", no_preset)] if no_preset else []))
        return dict(
            num_rows=table.num_rows,
            num_invalid=len(problems),
            columns=raw_columns,
            field_mapping=fields.field_mapping,
            preset=data_format.preset,
            tags=None if data_format.tags == ShareGptTags() else data_format.tags.model_dump(),
            split=fields.split,
            label_fields=fields.label_fields,
            description=fields.description,
        )

    def _data_format(self, table: DatasetTable, kind: str, fields: DatasetFields) -> tuple[DataFormat, str | None]:
        """The format the request names; for "auto", the platform's own when the first rows fit it, else the one
        preset they fit. When none or several do, the platform's own, with why no preset was chosen (said next to
        the rows' own problems)."""
        chosen = None if fields.preset in ("auto", "platform") else fields.preset
        data_format = DataFormat(
            preset=chosen, field_mapping=fields.field_mapping, tags=fields.tags, split=fields.split
        )
        if problem := preset_problem(data_format, kind):
            raise InvalidInputError([FieldError("preset", problem)])
        if fields.preset != "auto":
            return data_format, None
        sample = DatasetTable(table.frame.head(DETECTION_ROWS), [], min(table.num_rows, DETECTION_ROWS))
        data_format, detection = choose_format(sample_rows(sample), kind, data_format)
        return data_format, _no_preset(detection)

    def detect(self, request: DetectRequest) -> DetectResult:
        """The format a file's first rows would register with, and those rows as the engines would receive them."""
        base = DataFormat(field_mapping=request.field_mapping, tags=request.tags)
        data_format, detection = choose_format(request.rows, request.kind, base)
        rows = []
        for number, row in enumerate(request.rows, start=1):
            try:
                rows.append(row_out(number, normalise_row(row, data_format, request.kind)))
            except RowFormatError as error:
                rows.append(row_out(number, RowProblem(number, str(error))))
        columns = list(dict.fromkeys(name for row in request.rows for name in row))
        return DetectResult(
            preset=data_format.preset,
            detected=detection is None or detection.detected is not None,
            message=_no_preset(detection),
            tried=[PresetTried(preset=name, problem=problem) for name, problem in detection.tried] if detection else [],
            rows=rows,
            unused_columns=unused_columns(columns, data_format, request.kind),
        )

    @staticmethod
    def _check_fields(columns: list[str], mapping: dict[str, str], labels: list[str]) -> None:
        errors = []
        available = ", ".join(columns) or "none"
        for target, source in mapping.items():
            if source not in columns and source.split(".", 1)[0] not in columns:
                errors.append(FieldError(f"field_mapping.{target}", f"no column '{source}' (columns: {available})"))
        for index, label in enumerate(labels):
            if label not in columns and label not in mapping:
                errors.append(FieldError(f"label_fields.{index}", f"no column '{label}' (columns: {available})"))
        if errors:
            raise InvalidInputError(errors)

    def _problem_errors(
        self, problems: list[RowProblem], num_rows: int, file_name: str, field: str = "file"
    ) -> list[FieldError]:
        """The first problems as field errors, then a count and where the full list is."""
        report_id = uuid.uuid4().hex
        self.storage.write_report(
            report_id,
            {
                "file": file_name,
                "num_rows": num_rows,
                "num_invalid": len(problems),
                "problems": [{"row": p.row, "message": p.message} for p in problems],
            },
        )
        listed = problems[: self.error_limit]
        return row_problem_errors(field, listed, num_rows, len(problems), f"{REPORT_ROUTE}/{report_id}")

    def _check_name_free(self, name: str) -> None:
        if self.store.name_taken(name):
            raise ConflictError(f"a dataset named '{name}' is already registered")

    def _unique_hash(self, digest: str) -> str:
        if (existing := self.store.by_content_hash(digest)) is not None:
            raise ConflictError(f"the same content is already registered as dataset '{existing.name}' ({existing.id})")
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

    # ---- reading ---------------------------------------------------------------------------------------

    @staticmethod
    def kinds() -> list[DatasetKindRead]:
        return [
            DatasetKindRead(
                kind=kind,
                fields=list(fields.mappable),
                presets=[name for name, preset in PRESETS.items() if kind in preset.kinds],
            )
            for kind, fields in KIND_FIELDS.items()
        ]

    def list_all(self, kind: str | None = None) -> list[DatasetRead]:
        return [_dataset_read(dataset) for dataset in self.store.list_all(kind)]

    def get(self, name_or_id: str) -> DatasetRead:
        return _dataset_read(self.store.find(name_or_id))

    def versions(self, name_or_id: str) -> list[DatasetRead]:
        return [_dataset_read(dataset) for dataset in self.store.lineage(self.store.find(name_or_id).lineage_id)]

    def update(self, name_or_id: str, request: DatasetUpdate) -> DatasetRead:
        dataset = self.store.find(name_or_id)
        mapping = request.field_mapping if request.field_mapping is not None else dataset.field_mapping
        labels = request.label_fields if request.label_fields is not None else dataset.label_fields
        self._check_fields(dataset.columns, mapping, labels)
        changes = dict(field_mapping=mapping, label_fields=labels)
        if mapping != dataset.field_mapping:
            table = self._table(dataset, _data_format(dataset).model_copy(update={"field_mapping": mapping}))
            problems = validate_table(table, schema_for(dataset.kind))
            if len(problems) > dataset.num_invalid:
                raise InvalidInputError(self._problem_errors(problems, table.num_rows, Path(dataset.path).name))
            changes["num_invalid"] = len(problems)
            self.vectors.drop_prefixed(_collection(dataset))  # it embedded the old prompt column
        if request.description is not None:
            changes["description"] = request.description
        return _dataset_read(self.store.update(dataset.id, **changes))

    def delete(self, name_or_id: str) -> None:
        """The record, its tasks and vectors; its files too when the platform owns them (uploads, versions)."""
        dataset = self.store.find(name_or_id)
        self.vectors.drop_prefixed(_collection(dataset))
        self.store.delete(dataset.id)
        if dataset.source != "path":
            self.storage.remove_dataset_files(dataset.id)

    def _raw_table(self, dataset: RegisteredDataset) -> DatasetTable:
        """The rows as the file has them."""
        path = self._stored_path(dataset)
        try:
            return load_table(path, self.limits, split=dataset.split)
        except DatasetFileError as error:
            raise ConflictError(f"dataset '{dataset.name}' cannot be read any more: {error}") from None

    def _table(self, dataset: RegisteredDataset, data_format: DataFormat | None = None) -> DatasetTable:
        """The rows in the platform's shape, through the dataset's format (or `data_format`)."""
        return apply_format(self._raw_table(dataset), data_format or _data_format(dataset), dataset.kind)

    def rows(self, name_or_id: str, offset: int, limit: int, normalised: bool = False) -> RowsPage:
        """Rows as the file has them, or (`normalised`) in the platform's shape, as the engines receive them."""
        dataset = self.store.find(name_or_id)
        data_format = _data_format(dataset)
        found = []
        for number, row in iter_rows(self._stored_path(dataset), offset + 1, self.limits, split=dataset.split):
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
        self, name_or_id: str, row: int, tokenizer: str, max_length: int | None, train_on: LossTurns = "all_assistant"
    ) -> LossPreview:
        dataset = self.store.find(name_or_id)
        found = next(iter_rows(self._stored_path(dataset), row, self.limits, split=dataset.split), None)
        if found is None or found[0] != row:
            raise NotFoundError(f"dataset '{dataset.name}' has no row {row} (rows are numbered from 1)")
        if isinstance(found[1], RowProblem):
            raise InvalidInputError([FieldError("row", found[1].message, row=row)])
        try:
            platform_row = normalise_row(found[1], _data_format(dataset), dataset.kind)
        except RowFormatError as error:
            raise InvalidInputError([FieldError("row", str(error), row=row)]) from None
        path = self._tokenizer_path(tokenizer)
        length = max_length or _default_max_length(dataset.kind)
        return loss_preview(row, platform_row, dataset.kind, load_tokenizer(path), path, length, train_on)

    def _tokenizer_path(self, tokenizer: str | None) -> str | None:
        """A registered model's directory, or the path as given; under the data roots either way."""
        if not tokenizer:
            return None
        try:
            path = self.models.get(tokenizer).path
        except NotFoundError:
            path = tokenizer
        return str(checked_path(path, self.path_roots, "tokenizer"))

    # ---- analysis --------------------------------------------------------------------------------------

    def stats(self, name_or_id: str, tokenizer: str | None, bins: int) -> DatasetStats:
        dataset = self.store.find(name_or_id)
        table = self._table(dataset)
        labels = label_fields_of(table, dataset.label_fields)
        return dataset_stats(table, dataset.kind, labels, token_counter(self._tokenizer_path(tokenizer)), bins)

    def start_audit(self, name_or_id: str, options: AuditOptions) -> TaskRead:
        dataset = self.store.find(name_or_id)
        counter = token_counter(self._tokenizer_path(options.tokenizer))  # a bad tokenizer is refused now

        def work(progress: ProgressCallback) -> dict:
            table = self._table(dataset)
            semantic = self._semantic_index(dataset) if options.semantic else None
            unused = unread_columns(dataset.columns, _data_format(dataset), dataset.kind, dataset.label_fields)
            report = audit_table(
                table,
                dataset.kind,
                schema_for(dataset.kind),
                options,
                counter,
                semantic,
                progress,
                unused_columns=unused,
            )
            return self._store_audit(report)

        return _task_read(self.tasks.submit(dataset.id, "audit", options.model_dump(), work))

    def _store_audit(self, report: AuditReport) -> dict:
        report_id = uuid.uuid4().hex
        self.storage.write_report(report_id, report.model_dump(mode="json"))
        return {
            "report": report_id,
            "summary": report.summary,
            "checks": report.checks,
            "findings": len(report.findings),
        }

    def task(self, name_or_id: str, task_id: str) -> AuditTaskRead:
        """A finished audit comes with its first findings, each cut to its first rows, and how many there are."""
        task = self.tasks.get(self.store.find(name_or_id).id, task_id)
        read = AuditTaskRead.model_validate(task, from_attributes=True)
        if task.kind == "audit" and task.status == "completed":
            path = self.report_path(task.result["report"])
            report = AuditReport.model_validate_json(path.read_text(encoding="utf-8"))
            read.findings = [
                f.model_copy(update={"rows": f.rows[:PREVIEW_ROWS]}) for f in report.findings[:PREVIEW_FINDINGS]
            ]
            read.findings_total = len(report.findings)
        return read

    def list_tasks(self, name_or_id: str) -> list[TaskRead]:
        return [_task_read(task) for task in self.tasks.list_for(self.store.find(name_or_id).id)]

    def report_path(self, report_id: str) -> Path:
        path = self.storage.report_path(report_id)
        if not path.is_file():
            raise NotFoundError(f"no report '{report_id}'")
        return path

    # ---- vectors: search and deduplication -------------------------------------------------------------

    def _semantic_index(self, dataset: RegisteredDataset) -> SemanticIndex:
        prompt = dataset.field_mapping.get("prompt", "prompt")
        content = f"{dataset.content_hash or dataset.id}:{dataset.preset or 'platform'}:{prompt}"
        return SemanticIndex(self.vectors, self.embedder, _collection(dataset), content)

    def _prompts(self, dataset: RegisteredDataset) -> tuple[list[int], list[str]]:
        texts = text_frame(self._table(dataset).frame, dataset.kind)
        present = with_text(texts, "prompt")
        return present[ROW].to_list(), present["prompt"].to_list()

    def start_index(self, name_or_id: str) -> TaskRead:
        dataset = self.store.find(name_or_id)

        def work(progress: ProgressCallback) -> dict:
            rows, texts = self._prompts(dataset)
            built = self._semantic_index(dataset).ensure(rows, texts, progress)
            return {"rows": len(rows), "built": built, "model": self.embedder.model_name}

        return _task_read(self.tasks.submit(dataset.id, "index", {}, work))

    def index_ready(self, name_or_id: str) -> bool:
        return self._semantic_index(self.store.find(name_or_id)).ready

    def search(self, name_or_id: str, query: str, top_k: int) -> list[SearchHit]:
        dataset = self.store.find(name_or_id)
        index = self._semantic_index(dataset)
        if not index.ready:
            raise ConflictError(
                f"dataset '{dataset.name}' has no up-to-date vector index; build it first "
                f"(POST /api/v1/datasets/{dataset.name}/index or `tplat datasets index {dataset.name}`)"
            )
        return index.search(query, top_k)

    def start_dedup(self, name_or_id: str, request: DedupRequest) -> TaskRead:
        dataset = self.store.find(name_or_id)
        name = request.name or f"{dataset.name}-dedup"
        self._check_name_free(name)

        def work(progress: ProgressCallback) -> dict:
            table = self._raw_table(dataset)  # the new version keeps the file's own columns
            formatted = apply_format(DatasetTable(table.frame, [], table.num_rows), _data_format(dataset), dataset.kind)
            texts = text_frame(formatted.frame, dataset.kind)
            groups = self._duplicate_groups(dataset, texts, request, progress)
            removed = {row for group in groups for row in group[1:]}
            if not removed:
                return {"removed": 0, "groups": 0, "dataset": None}
            kept = table.frame.filter(~pl.col(ROW).is_in(sorted(removed)))
            derivation = f"dedup {request.method}"
            if request.threshold:
                derivation += f" threshold {request.threshold}"
            derived = self._derive(dataset, kept, name, derivation + f": kept {kept.height} of {table.frame.height}")
            return {"removed": len(removed), "groups": len(groups), "dataset": derived.id, "name": derived.name}

        return _task_read(self.tasks.submit(dataset.id, "dedup", request.model_dump(), work))

    def _duplicate_groups(
        self, dataset: RegisteredDataset, texts: pl.DataFrame, request: DedupRequest, progress: ProgressCallback
    ) -> list[list[int]]:
        if request.method == "semantic":
            index = self._semantic_index(dataset)
            findings = semantic_duplicates(texts, index, request.threshold or 0.9, [], progress)
        else:
            findings = exact_duplicates(texts)
            if request.method == "near":
                findings += near_duplicates(texts, request.threshold or 0.8)
        return [finding.rows for finding in findings]

    # ---- conversion and versions -----------------------------------------------------------------------

    def convert(self, name_or_id: str, request: ConvertRequest) -> list[DatasetRead]:
        dataset = self.store.find(name_or_id)
        if request.format == "verl":
            raise InvalidInputError([FieldError("format", "verl's layouts come with the verl engine; use 'trl'")])
        name = request.name or f"{dataset.name}-{request.format}"
        table = self._table(dataset)
        invalid = {p.row for p in validate_table(table, schema_for(dataset.kind))}
        valid = table.frame.filter(~pl.col(ROW).is_in(sorted(invalid)))
        layout = trl_layout(valid, {} if row_wise(_data_format(dataset)) else dataset.field_mapping)
        if any(dtype == pl.Object for dtype in layout.dtypes):
            raise InvalidInputError(
                [FieldError("format", "a column mixes value types (text and lists); Parquet needs one type per column")]
            )
        note = f"converted to the {request.format} layout ({len(invalid)} invalid rows left out)"
        if request.validation_fraction == 0:
            return [_dataset_read(self._derive(dataset, layout, name, note, platform_format=True))]
        train, validation = split(layout, request.validation_fraction, request.seed)
        parts = {"train": train, "validation": validation}
        for part in parts:
            self._check_name_free(f"{name}-{part}")
        share = f"split {1 - request.validation_fraction:g}/{request.validation_fraction:g}, seed {request.seed}"
        return [
            _dataset_read(
                self._derive(dataset, frame, f"{name}-{part}", f"{note}; {share}: {part}", platform_format=True)
            )
            for part, frame in parts.items()
        ]

    def _derive(
        self,
        parent: RegisteredDataset,
        frame: pl.DataFrame,
        name: str,
        derivation: str,
        platform_format: bool = False,
    ) -> RegisteredDataset:
        """A new version of `parent` holding `frame`'s rows: in the parent's format, or in the platform's own
        (`platform_format`: the rows were converted)."""
        self._check_name_free(name)
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
                label_fields=parent.label_fields,
                parent_id=parent.id,
                lineage_id=parent.lineage_id,
                version=(version or parent.version) + 1,
                derivation=derivation,
            )
            return self._insert(dataset, staged)
        finally:
            staged.unlink(missing_ok=True)

    # ---- jobs ------------------------------------------------------------------------------------------

    def resolve(self, reference: str) -> tuple[str, DataFormat]:
        """A job's `dataset:<name or id>` entry → the dataset's path and its data format."""
        dataset = self.store.find(reference.removeprefix(DATASET_REFERENCE))
        self._stored_path(dataset)
        return dataset.path, _data_format(dataset)


def _fits(row: dict, data_format: DataFormat, kind: str) -> bool:
    # Rule-rewarded rows fit the platform's fields with the default answer field: verl's layout nests the answer.
    answers = [RewardSpec().answer_field] if kind in ("grpo", "gspo") else []
    try:
        return row_problem(normalise_row(row, data_format, kind), schema_for(kind, answers)) is None
    except RowFormatError:
        return False


def choose_format(rows: list[dict], kind: str, base: DataFormat) -> tuple[DataFormat, Detection | None]:
    """The platform's own fields when every row fits them (no detection needed); else the one preset every row
    fits, with the detection; else the platform's own, with the detection that says why no preset was chosen when
    no row fits the platform's fields either (when some do, the others are rows with problems, said row by row)."""
    fitting = sum(_fits(row, base, kind) for row in rows)
    if fitting == len(rows):
        return base, None
    detection = detect_presets(rows, kind, base)
    if detection.detected is None:
        return base, None if fitting else detection
    return base.model_copy(update={"preset": detection.detected}), detection


def _no_preset(detection: Detection | None) -> str | None:
    if detection is None or detection.detected is not None or not detection.tried:
        return None
    return no_preset_fits_message(detection)


def _data_format(dataset: RegisteredDataset) -> DataFormat:
    return DataFormat(
        preset=dataset.preset,
        field_mapping=dataset.field_mapping,
        tags=ShareGptTags.model_validate(dataset.tags or {}),
        split=dataset.split,
    )


def _dataset_read(dataset: RegisteredDataset) -> DatasetRead:
    return DatasetRead.model_validate(dataset, from_attributes=True)


def _task_read(task: DatasetTask) -> TaskRead:
    return TaskRead.model_validate(task, from_attributes=True)


def _collection(dataset: RegisteredDataset) -> str:
    return f"dataset_{dataset.id}"


def _size(path: Path, split: str | None = None) -> int:
    return sum(file.stat().st_size for file in data_files(path, split=split))


def _default_max_length(kind: str) -> int:
    algorithm = Algorithm.DPO if kind == "dpo" else Algorithm.SFT
    return parse_params(algorithm, {}).max_length
