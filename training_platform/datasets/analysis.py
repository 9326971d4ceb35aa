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
from training_platform.common.text import ENGLISH, Language
from training_platform.datasets.audit import AuditOptions, AuditReport, add_semantic_duplicates
from training_platform.datasets.decoding import compute_stats, run_audit
from training_platform.datasets.reading import DatasetReader, data_format_of
from training_platform.datasets.schemas import AuditTaskRead
from training_platform.datasets.semantic import SemanticSearch
from training_platform.datasets.stats import DatasetStats, unread_columns
from training_platform.datasets.storage import DatasetStorage
from training_platform.db.tables import DatasetTask, RegisteredDataset
from training_platform.errors import ConflictError, NotFoundError
from training_platform.tasks import TaskRunner

PREVIEW_FINDINGS = 50
PREVIEW_ROWS = 20
_DECODING_SHARE = 0.35  # of a semantic audit's progress, the rest the embedding's


class DatasetAnalysis:
    def __init__(self, reader: DatasetReader, semantic: SemanticSearch, storage: DatasetStorage, tasks: TaskRunner):
        self.reader = reader
        self.semantic = semantic
        self.storage = storage
        self.tasks = tasks

    def stats(self, dataset: RegisteredDataset, tokenizer: str | None, bins: int) -> DatasetStats:
        path = self.reader.tokenizer_path(tokenizer)
        return self.reader.decode(
            dataset,
            compute_stats,
            data_format_of(dataset),
            dataset.kind,
            dataset.label_fields,
            path,
            bins,
            what="computing the statistics" + (f" with the tokenizer {path}" if path else ""),
        )

    def start_audit(self, dataset: RegisteredDataset, options: AuditOptions) -> DatasetTask:
        """The audit runs in the decoding worker, its progress relayed; a semantic audit's embedding, which needs
        the server's model, then runs here on the prompts the worker sent back."""
        tokenizer = self.reader.check_tokenizer(options.tokenizer)  # a bad tokenizer is refused now

        def work(progress: ProgressCallback) -> dict:
            unused = unread_columns(dataset.columns, data_format_of(dataset), dataset.kind, dataset.label_fields)
            # The embedding is most of a semantic audit's time (audit.py's weights).
            decoding_share = _DECODING_SHARE if options.semantic else 1.0
            report, texts = self.reader.decode(
                dataset,
                run_audit,
                data_format_of(dataset),
                dataset.kind,
                options,
                tokenizer,
                unused,
                what="auditing",
                progress=lambda fraction, message: progress(fraction * decoding_share, message),
            )
            if texts is not None:
                report = add_semantic_duplicates(
                    report,
                    texts,
                    self.semantic.index_of(dataset),
                    options.semantic_threshold,
                    lambda fraction, message: progress(decoding_share + (1 - decoding_share) * fraction, message),
                )
            return self._store_audit(report)

        return self.tasks.submit(dataset.id, "audit", options.model_dump(), work)

    def task(self, dataset: RegisteredDataset, task_id: str, language: Language = ENGLISH) -> AuditTaskRead:
        """A finished audit comes with its first findings, each cut to its first rows and said in `language`, and
        how many there are."""
        task = self.tasks.get(dataset.id, task_id)
        read = AuditTaskRead.model_validate(task, from_attributes=True)
        if task.kind == "audit" and task.status == "completed":
            path = self.report_path(task.result["report"])
            report = AuditReport.model_validate_json(path.read_text(encoding="utf-8"))
            read.findings = [
                f.in_language(language).model_copy(update={"rows": f.rows[:PREVIEW_ROWS]})
                for f in report.findings[:PREVIEW_FINDINGS]
            ]
            read.findings_total = len(report.findings)
        return read

    def forget_audits(self, dataset: RegisteredDataset) -> None:
        """The dataset's audits and their reports are deleted when its format changed: their findings (rows that do
        not fit the format, unused columns, lengths) described rows the dataset no longer reads that way."""
        if self.tasks.unfinished(dataset.id, "audit"):
            raise ConflictError(
                f"dataset '{dataset.name}' is being audited: change its format once the audit has finished"
            )
        for task in self.tasks.delete_finished(dataset.id, "audit"):
            if task.result and "report" in task.result:
                self.storage.report_path(task.result["report"]).unlink(missing_ok=True)

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
            "unused_columns": report.unused_columns,
            "checks": report.checks,
            "findings": len(report.findings),
        }
