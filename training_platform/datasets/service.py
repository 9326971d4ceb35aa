"""The datasets service: what the routers and the platform call, the catalogue kept here and the rest handed on.

The catalogue (the kinds, the datasets and their versions, a description or a data format changed, a dataset
deleted, a job's `dataset:<name or id>` resolved) is this module's. The rest has a module each:
- registration.py: registering a file on disk, an upload or a derived version, all-or-nothing;
- detection.py: which data format rows are read with ("auto": the one their first rows fit);
- reading.py: a registered dataset's rows and previews, read under the data roots and within the read limits;
- analysis.py: statistics, and audits as background tasks;
- semantic.py: the vector index of a dataset's prompts and the search over it;
- versions.py: new versions, deduplicated or converted;
- llamafactory.py: a LLaMA-Factory project's dataset_info.json, each local dataset registered through registration.py.
Those that work on a registered dataset get it looked up here, and the database rows they return are shown here as
the API's schemas.
"""

from collections.abc import Sequence
from pathlib import Path

from training_platform.common.text import ENGLISH, Language
from training_platform.common.worker import Worker, WorkerLimits
from training_platform.contract.data import DataFormat, LossTurns
from training_platform.datafiles.kinds import KIND_FIELDS
from training_platform.datafiles.layout import DATASET_REFERENCE
from training_platform.datafiles.limits import ReadLimits
from training_platform.datafiles.presets import PRESETS
from training_platform.datasets import detection, llamafactory
from training_platform.datasets.analysis import DatasetAnalysis
from training_platform.datasets.audit import AuditOptions
from training_platform.datasets.convert import ConvertRequest
from training_platform.datasets.decoding import decoding_worker
from training_platform.datasets.preview import LossPreview, RowsPage
from training_platform.datasets.reading import DatasetReader, data_format_of
from training_platform.datasets.registration import DatasetRegistration, check_fields, inspect_file, stored_tags
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
    ImportedEntry,
    LlamaFactoryImport,
    LlamaFactoryImportResult,
    TaskRead,
)
from training_platform.datasets.semantic import SemanticSearch
from training_platform.datasets.stats import DatasetStats, unread_columns
from training_platform.datasets.storage import DatasetStorage, StagedUpload
from training_platform.datasets.store import DatasetStore
from training_platform.datasets.texts import text_error
from training_platform.datasets.vectors import Embedder, SearchHit, VectorStore
from training_platform.datasets.versions import DatasetVersions
from training_platform.db.tables import DatasetTask, RegisteredDataset
from training_platform.errors import InvalidInputError, PlatformError
from training_platform.models.service import ModelService
from training_platform.tasks import TaskRunner


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
        decode_limits: WorkerLimits,
        previews: Worker,
    ):
        self.store = store
        self.storage = storage
        self.tasks = TaskRunner(store.db, DatasetTask, owner="dataset_id")
        worker = decoding_worker(decode_limits)  # every decode of a dataset's file (decoding.py)
        self.reader = DatasetReader(models, path_roots, limits, worker, previews)
        self.registration = DatasetRegistration(store, storage, error_limit, path_roots, limits, worker)
        self.semantic = SemanticSearch(self.reader, vectors, embedder, self.tasks)
        self.analysis = DatasetAnalysis(self.reader, self.semantic, storage, self.tasks)
        self.new_versions = DatasetVersions(self.reader, self.registration, self.semantic, self.tasks)

    @property
    def embedder(self) -> Embedder:
        return self.semantic.embedder

    @embedder.setter
    def embedder(self, embedder: Embedder) -> None:
        # One model embeds for every index: whoever swaps it (a test sharing its loaded model) swaps it for all.
        self.semantic.embedder = embedder

    def recover(self) -> None:
        """At server start (one server per home): uploads and tasks cut off by the last stop are gone."""
        self.storage.clear_incoming()
        self.tasks.recover()

    def close(self) -> None:
        self.tasks.shutdown()
        self.semantic.close()

    # ---- registration (registration.py, detection.py) ---------------------------------------------------

    def register(self, request: DatasetRegister) -> DatasetRead:
        return _dataset_read(self.registration.register(request))

    def receive(self, filename: str) -> StagedUpload:
        return self.registration.receive(filename)

    def check_upload(self, request: DatasetUpload) -> None:
        self.registration.check_upload(request)

    def finish_upload(self, staged: StagedUpload, request: DatasetUpload) -> DatasetRead:
        return _dataset_read(self.registration.finish_upload(staged, request))

    def detect(self, request: DetectRequest, language: Language = ENGLISH) -> DetectResult:
        return detection.detect(request, language)

    def import_llamafactory(self, request: LlamaFactoryImport) -> LlamaFactoryImportResult:
        """Each local dataset a LLaMA-Factory dataset_info.json describes, registered as `register` registers one
        (the same checks), the others skipped with the reason. An entry that fails is said and stops no other; a
        dry run checks the entries, their files and the names, and registers nothing."""
        roots = list(self.registration.path_roots)
        path = llamafactory.info_path(request.path, roots)
        info = llamafactory.read_dataset_info(path, self.registration.limits)
        results = []
        for planned in llamafactory.plan_import(path, info, request.prefix, roots):
            results.append(planned.result if planned.request is None else self._import(planned, request.dry_run))
        return LlamaFactoryImportResult(path=str(path), entries=results)

    def _import(self, planned: llamafactory.PlannedEntry, dry_run: bool) -> ImportedEntry:
        try:
            if dry_run:
                self.registration.check_name_free(planned.request.name)
                return planned.result
            self.registration.register(planned.request)
        except PlatformError as error:
            return planned.result.model_copy(update={"outcome": "failed", "reason": str(error)})
        return planned.result.model_copy(update={"outcome": "registered"})

    # ---- the catalogue -----------------------------------------------------------------------------------

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
        """A description, label fields or the data format (field mapping, preset, sharegpt tags) changed in place.
        A new format is checked as registration checks it, and refused if more rows fail it than failed the old
        one; once it is taken, the audits (analysis.py `forget_audits`) and the vector index are forgotten."""
        dataset = self.store.find(name_or_id)
        mapping = request.field_mapping if request.field_mapping is not None else dataset.field_mapping
        labels = request.label_fields if request.label_fields is not None else dataset.label_fields
        check_fields(dataset.columns, mapping, labels)
        changes = dict(field_mapping=mapping, label_fields=labels)
        new_tags = request.tags is not None and stored_tags(request.tags) != dataset.tags
        if mapping != dataset.field_mapping or request.preset is not None or new_tags:
            changes.update(self._new_format(dataset, mapping, request))
        if request.description is not None:
            changes["description"] = request.description
        return _dataset_read(self.store.update(dataset.id, **changes))

    def _new_format(self, dataset: RegisteredDataset, mapping: dict[str, str], request: DatasetUpdate) -> dict:
        """The dataset row's changes for the format `request` asks for; none when it is the format it has."""
        old_format = data_format_of(dataset)
        fields = DatasetFields(
            field_mapping=mapping,
            preset=request.preset or old_format.preset or "platform",
            tags=request.tags if request.tags is not None else old_format.tags,
            split=dataset.split,
            drop_columns=dataset.dropped_columns,
        )
        name = Path(dataset.path).name
        # Read and checked as registration does, in the decoding worker.
        found = self.reader.decode(
            dataset, inspect_file, dataset.kind, fields, "dataset", name, what="checking a format"
        )
        new = dict(num_invalid=len(found.problems), preset=found.values["preset"], tags=found.values["tags"])
        if (new["preset"], new["tags"], mapping) == (dataset.preset, dataset.tags, dataset.field_mapping):
            return {}
        if len(found.problems) > dataset.num_invalid:
            errors = self.registration.problem_errors(found.problems, found.values, name)
            raise InvalidInputError(errors + ([text_error("preset", found.no_preset)] if found.no_preset else []))
        self.analysis.forget_audits(dataset)
        self.semantic.forget(dataset)  # it embedded the prompts as the old format read them
        return new

    def delete(self, name_or_id: str) -> None:
        """The record, its tasks and vectors; its files too when the platform owns them (uploads, versions)."""
        dataset = self.store.find(name_or_id)
        self.semantic.forget(dataset)
        self.store.delete(dataset.id)
        if dataset.source != "path":
            self.storage.remove_dataset_files(dataset.id)

    def resolve(self, reference: str) -> tuple[str, DataFormat]:
        """A job's `dataset:<name or id>` entry → the dataset's path and its data format."""
        dataset = self.store.find(reference.removeprefix(DATASET_REFERENCE))
        self.reader.stored_path(dataset)
        return dataset.path, data_format_of(dataset)

    # ---- reading (reading.py) ----------------------------------------------------------------------------

    def rows(self, name_or_id: str, offset: int, limit: int, normalised: bool = False) -> RowsPage:
        return self.reader.rows(self.store.find(name_or_id), offset, limit, normalised)

    def preview(
        self, name_or_id: str, row: int, tokenizer: str, max_length: int | None, train_on: LossTurns = "all_assistant"
    ) -> LossPreview:
        return self.reader.preview(self.store.find(name_or_id), row, tokenizer, max_length, train_on)

    # ---- analysis and tasks (analysis.py) ----------------------------------------------------------------

    def stats(self, name_or_id: str, tokenizer: str | None, bins: int) -> DatasetStats:
        return self.analysis.stats(self.store.find(name_or_id), tokenizer, bins)

    def start_audit(self, name_or_id: str, options: AuditOptions) -> TaskRead:
        return _task_read(self.analysis.start_audit(self.store.find(name_or_id), options))

    def task(self, name_or_id: str, task_id: str, language: Language = ENGLISH) -> AuditTaskRead:
        return self.analysis.task(self.store.find(name_or_id), task_id, language)

    def list_tasks(self, name_or_id: str) -> list[TaskRead]:
        return [_task_read(task) for task in self.tasks.list_for(self.store.find(name_or_id).id)]

    def report_path(self, report_id: str) -> Path:
        return self.analysis.report_path(report_id)

    # ---- vectors: search (semantic.py) -------------------------------------------------------------------

    def start_index(self, name_or_id: str) -> TaskRead:
        return _task_read(self.semantic.start_index(self.store.find(name_or_id)))

    def index_ready(self, name_or_id: str) -> bool:
        return self.semantic.index_ready(self.store.find(name_or_id))

    def search(self, name_or_id: str, query: str, top_k: int) -> list[SearchHit]:
        return self.semantic.search(self.store.find(name_or_id), query, top_k)

    # ---- new versions: deduplication and conversion (versions.py) ----------------------------------------

    def start_dedup(self, name_or_id: str, request: DedupRequest) -> TaskRead:
        return _task_read(self.new_versions.start_dedup(self.store.find(name_or_id), request))

    def convert(self, name_or_id: str, request: ConvertRequest) -> list[DatasetRead]:
        return [_dataset_read(dataset) for dataset in self.new_versions.convert(self.store.find(name_or_id), request)]


def _dataset_read(dataset: RegisteredDataset) -> DatasetRead:
    """The record, with the columns nothing reads in its format (the audit reports the same ones)."""
    unused = unread_columns(dataset.columns, data_format_of(dataset), dataset.kind, dataset.label_fields)
    return DatasetRead.model_validate({**dataset.model_dump(), "unused_columns": unused})


def _task_read(task: DatasetTask) -> TaskRead:
    return TaskRead.model_validate(task, from_attributes=True)
