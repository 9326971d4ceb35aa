"""Training health: the detectors run on every step as it is ingested, their signals become findings, and a new
finding alerts and takes the job's automatic actions.

The same `Diagnoser` serves the three ways in (docs/health.md):
- live: the metrics service hands every record it reads to `steps_read`, in step order, on its worker thread;
  a job's diagnoser is built on its first records and, after a server restart, first replays what the store holds,
  so its windows are whole again (the replayed signals merge into the findings they made before: nothing doubles);
- at the end of a run: the job's log is scanned for fatal lines (out of memory, NCCL timeouts, crashes);
- on demand: `diagnose_job` runs a fresh pass over everything stored and the log and replaces the job's findings
  with what it found; `diagnose_step` replays up to a step and says what fired there.
"""

import logging
import threading
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

from training_platform.alerts.schemas import AlertEvent
from training_platform.common.locks import KeyedLocks
from training_platform.common.text import Text
from training_platform.contract import control
from training_platform.contract.health import HealthSettings
from training_platform.contract.params import Algorithm
from training_platform.db.tables import Finding, Job
from training_platform.diagnostics.detectors import Diagnoser, Signal
from training_platform.diagnostics.messages import LANGUAGES, describe
from training_platform.diagnostics.schemas import FindingRead, FindingText, HealthRead, SignalRead, StepDiagnosis
from training_platform.diagnostics.store import SEVERITY_RANK, Change, FindingStore, decode_evidence, encode_evidence
from training_platform.engines.registry import get_engine
from training_platform.errors import FieldError, InvalidInputError
from training_platform.jobs.runs import EXTERNAL, layout_of
from training_platform.jobs.service import JobService
from training_platform.metrics.reader import StepRecord
from training_platform.metrics.service import MetricsService

log = logging.getLogger(__name__)
# What of a job's log a diagnosis reads: its end, where a fatal error is; lines are cut to this length first.
LOG_TAIL_BYTES = 16 * 1024 * 1024
MAX_LOG_LINE = 4096
# Jobs whose detectors stay in memory between reads (running jobs, imports in progress); bounds the memory they take.
MAX_DIAGNOSERS = 256


class Notifier(Protocol):
    """Where alerts go (the alerts service): announcing an event_key twice sends it once."""

    def notify(self, event: AlertEvent) -> None: ...


class DiagnosticsService:
    def __init__(self, store: FindingStore, jobs: JobService, metrics: MetricsService, alerts: Notifier | None):
        self.store = store
        self.jobs = jobs
        self.metrics = metrics
        self.alerts = alerts
        # The jobs whose steps are being read, least recently read first; one evicted is rebuilt by a replay.
        self._diagnosers: OrderedDict[str, Diagnoser] = OrderedDict()
        self._diagnosers_guard = threading.Lock()  # the table above, shared by every job's thread
        self._lock = KeyedLocks()  # one per job: its records are read in order, by one thread at a time

    # ---- live: records as the metrics service reads them, and the end of a run --------------------

    def steps_read(self, job_id: str, records: list[StepRecord]) -> None:
        """Diagnose freshly read steps. A failure here is logged and never stops the ingest."""
        if not records:
            return
        try:
            with self._lock(job_id):
                job = self.jobs.find(job_id)
                diagnoser = self._diagnosers.get(job_id)
                replayed: list[Signal] = []
                if diagnoser is None:
                    diagnoser = _diagnoser(job)
                    first = min(record.step for record in records)
                    replayed = list(_observe(diagnoser, self.metrics.records(job_id, 0, first - 1)))
                self._keep(job_id, diagnoser)
                signals = [
                    signal
                    for record in sorted(records, key=lambda record: record.step)
                    for signal in diagnoser.observe(record.step, record.values)
                ]
                self._record(job, self.store.merge(job_id, [*replayed, *signals]))
        except Exception:
            log.exception("diagnosing steps of job %s failed; its ingest goes on", job_id)

    def _keep(self, job_id: str, diagnoser: Diagnoser) -> None:
        with self._diagnosers_guard:
            self._diagnosers[job_id] = diagnoser
            self._diagnosers.move_to_end(job_id)
            while len(self._diagnosers) > MAX_DIAGNOSERS:
                self._diagnosers.popitem(last=False)

    def job_started(self, job: Job) -> None:
        pass  # its diagnoser is built on its first records

    def job_ending(self, job: Job) -> None:
        pass

    def job_finished(self, job: Job) -> None:
        """The run ended: look in its log for what killed it; the next run of the job starts a fresh diagnoser."""
        try:
            with self._lock(job.id):
                with self._diagnosers_guard:
                    diagnoser = self._diagnosers.pop(job.id, None) or _diagnoser(job)
                signals = list(_scan_log(diagnoser, job))
                self._record(self.jobs.find(job.id), self.store.merge(job.id, signals))
        except Exception:
            log.exception("scanning the log of job %s failed", job.id)

    # ---- on demand --------------------------------------------------------------------------------

    def diagnose_job(self, name_or_id: str) -> HealthRead:
        """A fresh pass over every stored step and the log; the job's findings become what it found."""
        job = self.jobs.find(name_or_id)
        with self._lock(job.id):
            diagnoser = _diagnoser(job)
            signals = [*_observe(diagnoser, self.metrics.records(job.id)), *_scan_log(diagnoser, job)]
            self._record(job, self.store.replace(job.id, signals))
        return self.health(job.id)

    def diagnose_step(self, name_or_id: str, step: int) -> StepDiagnosis:
        """What the detectors say at `step`, with the history before it."""
        if step < 0:
            raise InvalidInputError([FieldError("step", "step must be 0 or more")])
        job = self.jobs.find(name_or_id)
        diagnoser = _diagnoser(job)
        logged, signals = False, []
        for record_step, values in self.metrics.records(job.id, 0, step):
            fired = diagnoser.observe(record_step, values)
            if record_step == step:
                logged, signals = True, fired
        return StepDiagnosis(
            job_id=job.id,
            step=step,
            logged=logged,
            has_anomaly=any(signal.severity != "info" for signal in signals),
            signals=[_signal_read(signal) for signal in signals],
        )

    def findings(
        self,
        name_or_id: str,
        kinds: list[str],
        severities: list[str],
        start_step: int | None,
        end_step: int | None,
    ) -> list[FindingRead]:
        if start_step is not None and end_step is not None and start_step > end_step:
            raise InvalidInputError([FieldError("start_step", f"start_step {start_step} is after end_step {end_step}")])
        job = self.jobs.find(name_or_id)
        return [_finding_read(row) for row in self.store.query(job.id, kinds, severities, start_step, end_step)]

    def health(self, name_or_id: str) -> HealthRead:
        job = self.jobs.find(name_or_id)
        findings = [_finding_read(row) for row in self.store.query(job.id)]
        return HealthRead(
            job_id=job.id,
            job_name=job.name,
            health=self.jobs.health_of(job),
            findings=findings,
            settings=HealthSettings.model_validate(job.health_settings),
        )

    # ---- what a change sets off: the health state, actions, alerts --------------------------------

    def _record(self, job: Job, changes: list[Change]) -> None:
        if not changes:
            return
        health = _health_of(self.store.query(job.id))
        if health != job.health:
            self.jobs.set_health(job.id, health)
        settings = HealthSettings.model_validate(job.health_settings)
        for change in changes:
            self._act(job, change.finding, settings)
            self._alert(job, change.finding)

    def _act(self, job: Job, finding: Finding, settings: HealthSettings) -> None:
        actions = settings.actions
        by_trainer = get_engine(job.engine).capabilities.trainer_actions if job.engine != EXTERNAL else frozenset()
        where = {"kind": finding.kind, "step": finding.last_step}
        if finding.kind == "non_finite" and actions.pause_on_non_finite:
            if "pause_on_non_finite" in by_trainer:
                self._take(job, finding, "pause", Text.of("health_action.paused_by_trainer", **where))
            else:
                requested = Text.of("health_action.pause_requested", **where)
                self._take(job, finding, "pause", requested, lambda: self.jobs.pause(job.id))
        if finding.kind == "grad_explosion" and actions.lower_lr_on_grad_explosion:
            if "lower_lr_on_grad_explosion" in by_trainer:
                factor = actions.lr_factor

                def lower() -> None:
                    control.request_lr_scale(layout_of(job), factor, request_id=finding.id)

                self._take(job, finding, "lower_lr", Text.of("health_action.lower_lr", factor=factor, **where), lower)
            else:
                message = Text.of(
                    "health_action.lower_lr_unsupported", engine=job.engine, factor=actions.lr_factor, **where
                )
                self._take(job, finding, "lower_lr", message)
        if finding.kind == "overfitting" and actions.stop_on_overfitting:
            best = Text.of("health_action.best_step", step=finding.best_step) if finding.best_step is not None else None
            message = Text.join(Text.of("health_action.stopped_early", **where), best)
            self._take(job, finding, "stop", message, lambda: self.jobs.pause(job.id))

    def _take(self, job: Job, finding: Finding, action: str, message: Text, work=None) -> None:
        """Take `action` for the finding once, whatever happens later; a job that is not running any more is left
        as it is (the action is recorded with why it did nothing)."""
        if job.engine == EXTERNAL or not self.store.take_action(finding.id, action):
            return
        if work is not None:
            try:
                work()
            except Exception as error:  # noqa: BLE001 - the job moved on (finished, already pausing)
                message = Text.join(message, Text.of("health_action.not_taken", error=str(error)))
        self.jobs.record_event(job.id, "action", message)

    def _alert(self, job: Job, finding: Finding) -> None:
        if self.alerts is None:
            return
        text = describe(_signal_of(finding))
        self.alerts.notify(
            AlertEvent(
                event_key=f"finding:{finding.id}:{finding.severity}",
                job_id=job.id,
                job_name=job.name,
                kind=finding.kind,
                severity=finding.severity,
                step=finding.last_step,
                title=f"{job.name}: {finding.kind.replace('_', ' ')} ({finding.severity})",
                message=text.message,
                suggestions=list(text.suggestions),
                url_path=f"/jobs/{job.id}?finding={finding.id}",
            )
        )


def _diagnoser(job: Job) -> Diagnoser:
    settings = HealthSettings.model_validate(job.health_settings).detectors
    # An imported run's algorithm is unknown: read it as RL, whose detectors cover the most keys.
    algorithm = Algorithm(job.algorithm) if job.algorithm in set(Algorithm) else Algorithm.GRPO
    return Diagnoser(settings, algorithm)


def _observe(diagnoser: Diagnoser, records) -> Iterator[Signal]:
    for step, values in records:
        yield from diagnoser.observe(step, values)


def _scan_log(diagnoser: Diagnoser, job: Job) -> Iterator[Signal]:
    if job.engine == EXTERNAL:
        return
    layout = layout_of(job)
    for path in (layout.stdout_path, layout.stderr_path):
        for line in _log_lines(path):
            signal = diagnoser.observe_line(line)
            if signal is not None:
                yield signal


def _log_lines(path: Path) -> Iterator[str]:
    """The lines of the end of a log (LOG_TAIL_BYTES), each cut to MAX_LOG_LINE characters."""
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        return
    with handle:
        size = handle.seek(0, 2)
        handle.seek(max(0, size - LOG_TAIL_BYTES))
        if size > LOG_TAIL_BYTES:
            handle.readline()  # a partial first line
        for raw in handle:
            yield raw[:MAX_LOG_LINE].decode("utf-8", errors="replace")


def _health_of(findings: list[Finding]) -> str:
    worst = max((SEVERITY_RANK[row.severity] for row in findings), default=0)
    return {0: "healthy", 1: "warning", 2: "critical"}[worst]


def _signal_of(finding: Finding) -> Signal:
    return Signal(
        finding.kind,
        finding.severity,
        finding.last_step,
        decode_evidence(finding.evidence),
        dict(finding.params),
        finding.best_step,
    )


def _texts(signal: Signal) -> dict[str, FindingText]:
    return {
        language: FindingText(message=text.message, suggestions=list(text.suggestions))
        for language in LANGUAGES
        for text in [describe(signal, language)]
    }


def _finding_read(row: Finding) -> FindingRead:
    return FindingRead(
        id=row.id,
        job_id=row.job_id,
        kind=row.kind,
        rule=row.rule or None,
        severity=row.severity,
        first_step=row.first_step,
        last_step=row.last_step,
        best_step=row.best_step,
        evidence=row.evidence,
        params=row.params,
        actions=row.actions,
        text=_texts(_signal_of(row)),
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def _signal_read(signal: Signal) -> SignalRead:
    return SignalRead(
        kind=signal.kind,
        rule=signal.params.get("rule"),
        severity=signal.severity,
        step=signal.step,
        best_step=signal.best_step,
        evidence=encode_evidence(signal.evidence),
        params=signal.params,
        text=_texts(signal),
    )
