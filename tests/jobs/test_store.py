"""Status changes on SQLite and PostgreSQL: legal ones are recorded as events, illegal ones change nothing."""

import threading
import uuid

import pytest

from training_platform.db.tables import Job
from training_platform.errors import ConflictError, NotFoundError
from training_platform.jobs.states import JobStatus
from training_platform.jobs.store import JobStore


@pytest.fixture
def store(platform):
    return JobStore(platform.db)


def add_job(store: JobStore, status: JobStatus = JobStatus.PENDING, name: str | None = None) -> Job:
    job = Job(
        id=uuid.uuid4().hex,
        name=name or f"job-{uuid.uuid4().hex[:6]}",
        algorithm="sft",
        engine="trl",
        model_path="/m",
        dataset_paths=["/d.jsonl"],
        params={"learning_rate": 1e-5},
        status=status.value,
        output_dir="/out",
    )
    return store.add(job, "created")


def test_legal_transition_records_an_event(store):
    job = add_job(store)
    moved = store.transition(job.id, JobStatus.RUNNING, "start", "started by user", attempt=1)
    assert moved.status == "running" and moved.attempt == 1
    events = store.events(job.id)
    assert [(e.kind, e.from_status, e.to_status, e.message) for e in events] == [
        ("created", None, "pending", "created"),
        ("status", "pending", "running", "started by user"),
    ]
    assert events[1].created_at.tzinfo is not None


@pytest.mark.parametrize(
    ("status", "target"),
    [
        (JobStatus.PENDING, JobStatus.PAUSED),
        (JobStatus.COMPLETED, JobStatus.RUNNING),
        (JobStatus.CANCELLED, JobStatus.RUNNING),
        (JobStatus.PAUSED, JobStatus.COMPLETED),
        (JobStatus.FAILED, JobStatus.CANCELLED),
    ],
)
def test_illegal_transition_is_refused_and_changes_nothing(store, status, target):
    job = add_job(store, status)
    with pytest.raises(ConflictError, match=f"it is {status.value}"):
        store.transition(job.id, target, "act", "should not happen", error="changed")
    after = store.get(job.id)
    assert (after.status, after.error, after.updated_at) == (status.value, None, job.updated_at)
    assert len(store.events(job.id)) == 1


def test_sources_narrow_the_state_machine(store):
    job = add_job(store, JobStatus.FAILED)
    with pytest.raises(ConflictError, match="start is allowed when it is pending"):
        store.transition(job.id, JobStatus.RUNNING, "start", "x", sources={JobStatus.PENDING})


def test_racing_transitions_have_exactly_one_winner(store):
    job = add_job(store)
    outcomes = []
    barrier = threading.Barrier(8)

    def start():
        barrier.wait()
        try:
            store.transition(job.id, JobStatus.RUNNING, "start", "race", sources={JobStatus.PENDING})
            outcomes.append("won")
        except ConflictError:
            outcomes.append("refused")

    threads = [threading.Thread(target=start) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused"] * 7 + ["won"]
    assert [e.to_status for e in store.events(job.id)] == ["pending", "running"]


def test_request_action_needs_a_running_job_without_another_request(store):
    job = add_job(store)
    with pytest.raises(ConflictError, match="pause is allowed when it is running"):
        store.request_action(job.id, "pause")
    store.transition(job.id, JobStatus.RUNNING, "start", "go")
    assert store.request_action(job.id, "pause").requested_action == "pause"
    with pytest.raises(ConflictError, match="pause already requested"):
        store.request_action(job.id, "pause")
    assert store.request_action(job.id, "stop", replace=(None, "pause")).requested_action == "stop"


def test_find_by_name_or_id_and_delete(store):
    job = add_job(store, name="my-run")
    assert store.find("my-run").id == job.id
    assert store.find(job.id).name == "my-run"
    with pytest.raises(NotFoundError):
        store.find("nope")
    store.transition(job.id, JobStatus.RUNNING, "start", "go")
    with pytest.raises(ConflictError, match="stop it first"):
        store.delete(job.id, unless_status=JobStatus.RUNNING)
    store.transition(job.id, JobStatus.CANCELLED, "stop", "stopped")
    store.delete(job.id, unless_status=JobStatus.RUNNING)
    with pytest.raises(NotFoundError):
        store.get(job.id)
