"""The export service wired by hand over a real database (SQLite and PostgreSQL) and TensorBoard: what a job's
trackers may say, the step held back while a job runs, and a restart that resumes from the cursor."""

import pytest
from pydantic import ValidationError
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from tests.support.jobs import add_job
from training_platform.jobs.schemas import JobCreate
from training_platform.jobs.states import FINISHED, JobStatus
from training_platform.jobs.store import JobStore
from training_platform.metrics.reader import StepRecord
from training_platform.metrics.store import MetricStore
from training_platform.metrics.system import PREFIX
from training_platform.trackers.service import TrackerService
from training_platform.trackers.store import TrackerStore

START = 1_700_000_000.0
MLFLOW = "http://127.0.0.1:5000"


@pytest.mark.parametrize(
    "trackers, where",
    [
        ([{"kind": "mlflow", "tracking_uri": "ftp://127.0.0.1/x"}], ("trackers", 0, "mlflow", "tracking_uri")),
        (
            [{"kind": "mlflow", "tracking_uri": "http://user:pw@10.0.0.5:5000"}],
            ("trackers", 0, "mlflow", "tracking_uri"),
        ),
        ([{"kind": "mlflow", "tracking_uri": "http://h:5000/ x"}], ("trackers", 0, "mlflow", "tracking_uri")),
        (
            [{"kind": "mlflow", "tracking_uri": MLFLOW, "experiment": "x" * 129}],
            ("trackers", 0, "mlflow", "experiment"),
        ),
        ([{"kind": "wandb", "project": "a/b"}], ("trackers", 0, "wandb", "project")),
        ([{"kind": "tensorboard", "logdir": "/etc"}], ("trackers", 0, "tensorboard", "logdir")),
        ([{"kind": "comet"}], ("trackers", 0)),
        ([{"kind": "tensorboard"}, {"kind": "tensorboard"}], ("trackers",)),
        ([{"kind": "mlflow", "tracking_uri": MLFLOW}] * 9, ("trackers",)),
    ],
)
def test_a_job_refuses_trackers_it_cannot_export_to(trackers, where):
    body = dict(name="j", algorithm="sft", model_path="/m", dataset_paths=["/d.jsonl"], trackers=trackers)
    with pytest.raises(ValidationError) as refused:
        JobCreate.model_validate(body)
    assert [error["loc"] for error in refused.value.errors()] == [where]


def exporter(db) -> TrackerService:
    return TrackerService(
        TrackerStore(db), JobStore(db).find, MetricStore(db).records, lambda name: name, [], FINISHED, PREFIX
    )


def tensorboard_scalars(folder) -> dict[str, list[int]]:
    events = EventAccumulator(str(folder), size_guidance={"scalars": 0}, purge_orphaned_data=False)
    events.Reload()
    return {tag: [event.step for event in events.Scalars(tag)] for tag in events.Tags()["scalars"]}


def test_an_export_holds_a_running_jobs_last_step_and_resumes_from_its_cursor_after_a_restart(db, tmp_path):
    jobs, metrics = JobStore(db), MetricStore(db)
    job = add_job(jobs, tmp_path, JobStatus.RUNNING, trackers=[{"kind": "tensorboard"}])
    metrics.write_batch(
        job.id, {step: {"loss": 1 / step, "timestamp": START + step, f"{PREFIX}cpu_percent": 9.0} for step in (1, 2, 3)}
    )
    service = exporter(db)
    service.steps_read(job.id, [StepRecord(3, {}, 3)])
    service.export_due()
    (export,) = service.store.exports(job.id)
    assert (export.kind, export.status, export.exported_step) == ("tensorboard", "exporting", 2)  # step 3 may grow
    service.close()  # the server stops; the run's event file stays

    metrics.write_batch(job.id, {3: {"eval_loss": 0.5}, 4: {"loss": 0.25, "timestamp": START + 4}})
    jobs.update(job.id, status=JobStatus.COMPLETED.value)
    restarted = exporter(db)  # knows nothing in memory: the cursor in the database is where it resumes
    assert restarted.export_due() is False
    (export,) = restarted.store.exports(job.id)
    assert (export.status, export.exported_step, export.failures) == ("closed", 4, 0)
    restarted.close()

    folder = tmp_path / job.id / "tensorboard"
    assert len(list(folder.glob("events.out.tfevents.*"))) == 2  # one per server: TensorBoard reads them as one run
    assert tensorboard_scalars(folder) == {"loss": [1, 2, 3, 4], "eval_loss": [3]}  # no system samples, no repeats
