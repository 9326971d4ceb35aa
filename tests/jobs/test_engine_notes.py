"""What the engine chose or fell back to (the notes of its status file: packing fell back to padding) becomes the job's
events, each once however often the platform reads the file, by this server or the next; a note that is not one of
the engines' texts is left out. The real supervisor on SQLite and PostgreSQL, a running job's row and the status file
its trainer would have written; no process."""

import time

from tests.support.jobs import add_job
from training_platform.common.text import Text
from training_platform.contract.status import TrainingState, TrainingStatus, write_status
from training_platform.jobs.runs import layout_of
from training_platform.jobs.states import JobStatus
from training_platform.jobs.store import JobStore
from training_platform.jobs.supervisor import ENGINE_EVENT, MAX_NOTES, JobSupervisor, engine_notes
from training_platform.runners.base import ExitInfo
from training_platform.runners.local import LocalRunner

FALLBACK = Text.of("trl.packing_fallback", reason="Qwen2ForCausalLM with eager attention lets packed samples attend")
PACKED = Text.of("trl.packed", samples=400, packs=37, tokens=2048, mean=150.5)
MALFORMED = [
    {"params": {"reason": "no code"}},
    {"code": "job.completed", "params": {}},  # the platform's own words, not an engine's
    {"code": "trl.packing_fallback", "params": {}},  # its reason missing
    {"code": "trl.packing_fallback", "params": "padded"},
    {"code": "trl.packing_fallback", "params": {"reason": {"code": "no.such.text"}}},
    {"code": "trl.packing_fallback", "params": {"reason": "x" * 10_000}},
]


def supervisor(store: JobStore) -> JobSupervisor:
    return JobSupervisor(store, {"local": LocalRunner()}, stop_grace_seconds=2, cpu_threads=1, stall_seconds=3600)


def running_job(store: JobStore, root, state: TrainingState = TrainingState.RUNNING):
    """A job whose process runs (as far as its row says) and whose trainer wrote its notes."""
    job = add_job(store, root, JobStatus.RUNNING, attempt=1, process_started_at=time.time())
    notes = [FALLBACK.as_dict(), *MALFORMED, PACKED.as_dict()]
    write_status(layout_of(job).status_path, TrainingStatus(job_id=job.id, status=state, notes=notes))
    return job


def engine_events(store: JobStore, job_id: str) -> list[Text]:
    return [Text(event.code, event.params) for event in store.events(job_id) if event.kind == ENGINE_EVENT]


def test_each_note_is_an_event_once_across_readings_restarts_and_the_end(db, tmp_path):
    store = JobStore(db)
    job = running_job(store, tmp_path)
    watch = supervisor(store)
    assert watch.check_running(time.time()) == []
    assert engine_events(store, job.id) == [FALLBACK, PACKED]
    watch.check_running(time.time())
    assert engine_events(store, job.id) == [FALLBACK, PACKED]

    restarted = supervisor(store)  # the next server knows nothing of what the last one recorded
    restarted.check_running(time.time())
    write_status(
        layout_of(job).status_path,
        TrainingStatus(job_id=job.id, status=TrainingState.COMPLETED, notes=[PACKED.as_dict(), FALLBACK.as_dict()]),
    )
    restarted.on_exit(job.id, job.attempt, ExitInfo(code=0))
    assert store.get(job.id).status == JobStatus.COMPLETED
    events = [event for event in store.events(job.id) if event.kind == ENGINE_EVENT]
    assert [event.message for event in events] == [FALLBACK.render(), PACKED.render()]
    assert events[0].message.startswith("samples padded, not packed: Qwen2ForCausalLM")
    assert Text(events[1].code, events[1].params).render("zh-CN").startswith("已将 400 个样本打包为 37 个序列")


def test_a_job_stopped_before_the_watch_read_it_has_its_notes(db, tmp_path):
    store = JobStore(db)
    job = running_job(store, tmp_path)
    supervisor(store).stop(job)  # what the jobs service's stop does first; this job's row names no process
    assert engine_events(store, job.id) == [FALLBACK, PACKED]


def test_only_the_first_notes_are_read():
    notes = [Text.of("trl.packing_fallback", reason=f"reason {index}").as_dict() for index in range(MAX_NOTES + 5)]
    kept = engine_notes(TrainingStatus(job_id="job", status=TrainingState.RUNNING, notes=notes))
    assert [note.params["reason"] for note in kept] == [f"reason {index}" for index in range(MAX_NOTES)]
    assert engine_notes(None) == []
