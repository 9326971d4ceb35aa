"""A failed metrics write leaves nothing behind: after it, two jobs' writes each keep their own data (SQLite hands
a rolled-back series' id to the next new series; a cached id from the failed write once sent one job's values
into another's series). On SQLite and PostgreSQL."""

import asyncio

import pytest
from sqlalchemy.exc import DBAPIError, OperationalError

from tests.support.jobs import add_job
from training_platform.errors import NotFoundError
from training_platform.jobs.runs import layout_of
from training_platform.jobs.states import JobStatus
from training_platform.metrics.follower import JobFollower
from training_platform.metrics.ingest import MetricsIngester
from training_platform.metrics.live import LiveHub
from training_platform.metrics.reader import Cursor, LocalFileSource
from training_platform.metrics.store import MetricStore


def disk_full(*_args, **_kwargs):
    raise OperationalError("INSERT ...", {}, Exception("database or disk is full"))


# Each failure strikes after the batch's new series (and, for the last two, its points) were written.
FAILURES = {
    "a step beyond 64 bits": None,
    "the rollups fail mid-batch": "_update_rollups",
    "the cursor fails at the end": "_save_cursor",
}


def stored(store: MetricStore, job_id: str) -> dict[int, dict[str, float]]:
    return dict(store.records(job_id))


@pytest.mark.parametrize("failure", FAILURES)
def test_a_failed_write_then_two_jobs_writes_keep_each_jobs_data_its_own(db, jobs, tmp_path, monkeypatch, failure):
    store = MetricStore(db)
    job_a, job_b = add_job(jobs, tmp_path).id, add_job(jobs, tmp_path).id
    store.write_batch(job_a, {1: {"loss": 1.0}})
    cursor = ("/a.jsonl", Cursor(offset=100, line_number=2))
    with monkeypatch.context() as patch:
        if FAILURES[failure]:
            patch.setattr(MetricStore, FAILURES[failure], disk_full)
        step = 2**64 if FAILURES[failure] is None else 2
        with pytest.raises((OverflowError, DBAPIError)):
            store.write_batch(job_a, {step: {"reward_mean": 0.5, "kl": 0.1}}, [(step, "spike", "x")], cursor)
    # Job B's new series may now get the ids the failed write had made; job A's series are made anew.
    store.write_batch(job_b, {1: {"throughput": 7.0, "kl": 0.2}, 2: {"throughput": 8.0}})
    store.write_batch(job_a, {3: {"reward_mean": 0.25, "kl": 0.3}})
    store.write_batch(job_b, {3: {"throughput": 9.0}})

    assert stored(store, job_a) == {1: {"loss": 1.0}, 3: {"reward_mean": 0.25, "kl": 0.3}}
    assert stored(store, job_b) == {1: {"throughput": 7.0, "kl": 0.2}, 2: {"throughput": 8.0}, 3: {"throughput": 9.0}}
    # The rollups (what long-range queries read) agree with the points.
    assert [(k.key, k.points, k.first_step, k.last_step) for k in store.keys(job_a)] == [
        ("kl", 1, 3, 3),
        ("loss", 1, 1, 1),
        ("reward_mean", 1, 3, 3),
    ]
    assert [(k.key, k.points) for k in store.keys(job_b)] == [("kl", 1), ("throughput", 3)]
    assert store.anomalies(job_a) == [] and store.load_cursor(job_a, "/a.jsonl") is None
    # A new store (a restarted server) reads the same.
    assert stored(MetricStore(db), job_a) == stored(store, job_a)


def test_a_flush_that_fails_keeps_its_buffer_and_writes_it_next_time(db, jobs, tmp_path, monkeypatch):
    store = MetricStore(db)
    job_a, job_b = add_job(jobs, tmp_path).id, add_job(jobs, tmp_path).id
    path_a, path_b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    path_a.write_text("".join(f'{{"step": {s}, "custom": {{"a{s % 3}": {s}}}}}\n' for s in range(1, 6)))
    path_b.write_text("".join(f'{{"step": {s}, "custom": {{"b{s % 2}": {-s}}}}}\n' for s in range(1, 4)))
    ingest_a = MetricsIngester(store, job_a, LocalFileSource(path_a))
    ingest_a.poll()
    with monkeypatch.context() as patch:
        patch.setattr(MetricStore, "_save_cursor", disk_full)
        with pytest.raises(OperationalError):
            ingest_a.flush()
    assert store.load_cursor(job_a, str(path_a.resolve())) is None and stored(store, job_a) == {}
    assert len(ingest_a.pending) == 5  # kept for the next flush
    MetricsIngester(store, job_b, LocalFileSource(path_b)).ingest_all()
    assert ingest_a.flush() == 5
    assert stored(store, job_a) == {s: {f"a{s % 3}": float(s)} for s in range(1, 6)}
    assert stored(store, job_b) == {s: {f"b{s % 2}": float(-s)} for s in range(1, 4)}
    assert store.load_cursor(job_a, str(path_a.resolve())).offset == path_a.stat().st_size


def test_a_step_the_store_refuses_is_dropped_alone_and_the_cursor_moves_on(db, jobs, tmp_path):
    store = MetricStore(db)
    job = add_job(jobs, tmp_path).id
    path = tmp_path / "m.jsonl"
    path.write_text("".join(f'{{"step": {s}, "loss": {{"total_loss": {s / 10}}}}}\n' for s in range(1, 4)))
    ingester = MetricsIngester(store, job, LocalFileSource(path))
    ingester.poll()
    ingester.pending[2**64] = {"loss": 1.0}  # what no reader lets through any more: the store refuses it
    assert ingester.flush() == 3
    assert stored(store, job) == {s: {"loss": s / 10} for s in range(1, 4)}
    assert store.load_cursor(job, str(path.resolve())).line_number == 3
    assert ingester.pending == {}


def test_a_deleted_jobs_cached_series_never_take_another_jobs_values(db, jobs, tmp_path):
    store = MetricStore(db)
    job_a, job_b = add_job(jobs, tmp_path).id, add_job(jobs, tmp_path).id
    store.write_batch(job_a, {1: {"loss": 1.0, "kl": 0.1}})
    jobs.delete(job_a, unless_status=JobStatus.RUNNING)  # its series go with it; SQLite may hand their ids out again
    store.write_batch(job_b, {1: {"throughput": 7.0, "reward_mean": 0.5}})
    with pytest.raises(NotFoundError):
        store.write_batch(job_a, {2: {"loss": 2.0, "kl": 0.2}})  # a late flush of the deleted job's follower
    assert stored(store, job_b) == {1: {"throughput": 7.0, "reward_mean": 0.5}}


def test_a_follower_goes_on_after_a_failed_write_and_stores_what_it_read(db, jobs, tmp_path, monkeypatch):
    store = MetricStore(db)
    job = add_job(jobs, tmp_path, JobStatus.RUNNING)
    layout = layout_of(job)
    ingester = MetricsIngester(store, job.id, LocalFileSource(layout.metrics_path), flush_records=1)
    failures, write_batch = [disk_full] * 2, MetricStore.write_batch
    monkeypatch.setattr(
        MetricStore, "write_batch", lambda *a, **k: failures.pop()() if failures else write_batch(*a, **k)
    )

    async def follow() -> None:
        follower = JobFollower(
            job.id, ingester, asyncio.Lock(), LiveHub(), layout.metrics_path, layout.status_path, dict
        )
        follower.start()
        for step in (1, 2):
            with open(layout.metrics_path, "a") as handle:
                handle.write(f'{{"step": {step}, "loss": {{"total_loss": {step}}}}}\n')
            for _ in range(100):  # the follower retries at its next wake (each second)
                if step in stored(store, job.id):
                    break
                await asyncio.sleep(0.1)
        assert not follower.task.done()  # still following
        await follower.finish()

    asyncio.run(follow())
    assert failures == [] and stored(store, job.id) == {1: {"loss": 1.0}, 2: {"loss": 2.0}}
