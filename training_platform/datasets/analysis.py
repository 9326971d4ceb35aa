"""Analysis of a registered dataset, in the platform's shape: its statistics, computed on request, and audits, run
as background tasks.

An audit's full report is written to the data directory (datasets/storage.py), downloadable there; its task keeps
the report's id and summary, and a finished audit is shown with its first findings (`PREVIEW_FINDINGS`), each cut to
its first rows (`PREVIEW_ROWS`). A tokenizer that cannot be loaded is refused when the audit is asked for, not after
it started.
"""

import uuid
from pathlib import Path

from training_platform.common.progress import ProgressCallback
from training_platform.datafiles.formats import schema_for
from training_platform.datasets.audit import AuditOptions, AuditReport, audit_table
from training_platform.datasets.reading import DatasetReader, data_format_of
from training_platform.datasets.schemas import AuditTaskRead
from training_platform.datasets.semantic import SemanticSearch
from training_platform.datasets.stats import DatasetStats, dataset_stats, label_fields_of, unread_columns
from training_platform.datasets.storage import DatasetStorage
from training_platform.datasets.tokens import token_counter
from training_platform.db.tables import DatasetTask, RegisteredDataset
from training_platform.errors import NotFoundError
from training_platform.tasks import TaskRunner

PREVIEW_FINDINGS = 50
PREVIEW_ROWS = 20


class DatasetAnalysis:
    def __init__(self, reader: DatasetReader, semantic: SemanticSearch, storage: DatasetStorage, tasks: TaskRunner):
        self.reader = reader
        self.semantic = semantic
        self.storage = storage
        self.tasks = tasks

    def stats(self, dataset: RegisteredDataset, tokenizer: str | None, bins: int) -> DatasetStats:
        table = self.reader.table(dataset)
        labels = label_fields_of(table, dataset.label_fields)
        return dataset_stats(table, dataset.kind, labels, token_counter(self.reader.tokenizer_path(tokenizer)), bins)

    def start_audit(self, dataset: RegisteredDataset, options: AuditOptions) -> DatasetTask:
        counter = token_counter(self.reader.tokenizer_path(options.tokenizer))  # a bad tokenizer is refused now

        def work(progress: ProgressCallback) -> dict:
            table = self.reader.table(dataset)
            semantic = self.semantic.index_of(dataset) if options.semantic else None
            unused = unread_columns(dataset.columns, data_format_of(dataset), dataset.kind, dataset.label_fields)
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

        return self.tasks.submit(dataset.id, "audit", options.model_dump(), work)

    def task(self, dataset: RegisteredDataset, task_id: str) -> AuditTaskRead:
        """A finished audit comes with its first findings, each cut to its first rows, and how many there are."""
        task = self.tasks.get(dataset.id, task_id)
        read = AuditTaskRead.model_validate(task, from_attributes=True)
        if task.kind == "audit" and task.status == "completed":
            path = self.report_path(task.result["report"])
            report = AuditReport.model_validate_json(path.read_text(encoding="utf-8"))
            read.findings = [
                f.model_copy(update={"rows": f.rows[:PREVIEW_ROWS]}) for f in report.findings[:PREVIEW_FINDINGS]
            ]
            read.findings_total = len(report.findings)
        return read

    def report_path(self, report_id: str) -> Path:
        """An audit's report, or the rows a registration refused (registration.py), by its id."""
        path = self.storage.report_path(report_id)
        if not path.is_file():
            raise NotFoundError(f"no report '{report_id}'")
        return path

    def _store_audit(self, report: AuditReport) -> dict:
        report_id = uuid.uuid4().hex
        self.storage.write_report(report_id, report.model_dump(mode="json"))
        return {
            "report": report_id,
            "summary": report.summary,
            "checks": report.checks,
            "findings": len(report.findings),
        }
