"""Where a job stands across its attempts (jobs/progress.py): elapsed counts every attempt from its process's launch
and never goes backwards on a resume; the last known loss, learning rate, epoch and remaining time stay shown until
the resumed attempt reports its own; health is unknown until a step is logged."""

from training_platform.contract.status import TrainingState, TrainingStatus
from training_platform.db.tables import Job
from training_platform.jobs.progress import elapsed_seconds, ended_attempt, run_state

LAUNCH = 1_000.0


def job(**fields) -> Job:
    defaults = dict(id="j", name="j", algorithm="sft", engine="trl", model_path="m", dataset_paths=[], params={})
    return Job(**{**defaults, "status": "running", "output_dir": "/o", **fields})


def status(**fields) -> TrainingStatus:
    return TrainingStatus(job_id="j", **{"status": TrainingState.RUNNING, **fields})


def test_elapsed_counts_from_the_launch_and_adds_up_over_attempts():
    first = job(attempt=1, run_seconds=0.0, process_started_at=LAUNCH)
    # The trainer's first step came 20 s after the launch (model loading): elapsed counts those too.
    assert elapsed_seconds(first, LAUNCH + 26) == 26
    paused = first.model_copy(update=ended_attempt(first, LAUNCH + 39, status(current_step=30, elapsed_seconds=19)))
    assert paused.run_seconds == 39
    resumed = paused.model_copy(update={"attempt": 2, "process_started_at": LAUNCH + 100})
    # One second into the resumed attempt: 40 s in all, never back to 1 s.
    state = run_state(resumed, status(status=TrainingState.STARTING, elapsed_seconds=1), LAUNCH + 101)
    assert (state["elapsed_seconds"], state["attempt_elapsed_seconds"]) == (40, 1)


def test_the_last_known_values_stay_until_the_resumed_attempt_reports_its_own():
    first = job(attempt=1, run_seconds=0.0, process_started_at=LAUNCH)
    last = status(
        status=TrainingState.PAUSED,
        current_step=30,
        total_steps=90,
        epoch=1.0,
        loss=1.5,
        learning_rate=2e-5,
        elapsed_seconds=60,
        eta_seconds=None,  # a trainer that stopped clears its ETA
    )
    resumed = first.model_copy(update={**ended_attempt(first, LAUNCH + 60, last), "attempt": 2})
    starting = run_state(resumed, status(status=TrainingState.STARTING), LAUNCH + 61)["progress"]
    assert (starting.current_step, starting.total_steps, starting.loss, starting.learning_rate) == (30, 90, 1.5, 2e-5)
    assert starting.epoch == 1.0 and starting.eta_seconds == 120  # 60 s for 30 steps, 60 steps left
    reported = status(current_step=31, total_steps=90, loss=1.4, learning_rate=1e-5, epoch=1.02, eta_seconds=100)
    going = run_state(resumed, reported, LAUNCH + 70)["progress"]
    assert (going.current_step, going.loss, going.learning_rate, going.eta_seconds) == (31, 1.4, 1e-5, 100)


def test_health_is_unknown_until_a_step_is_logged():
    assert run_state(job(status="pending"), None, LAUNCH)["health"] == "unknown"
    failed_early = job(status="failed", attempt=1, run_seconds=3.0)
    assert run_state(failed_early, status(status=TrainingState.STARTING), LAUNCH)["health"] == "unknown"
    assert run_state(failed_early, status(current_step=1, loss=2.0), LAUNCH)["health"] == "healthy"
    assert run_state(job(health="critical"), None, LAUNCH)["health"] == "critical"
    imported = job(engine="external", algorithm="external", status="completed")
    assert run_state(imported, None, LAUNCH)["health"] == "healthy"


def test_a_job_from_before_the_platform_timed_attempts_shows_its_trainers_elapsed():
    old = job(status="completed", attempt=1, run_seconds=None)
    assert (
        run_state(old, status(status=TrainingState.COMPLETED, elapsed_seconds=12.5), LAUNCH)["elapsed_seconds"] == 12.5
    )
