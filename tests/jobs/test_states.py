import pytest

from training_platform.jobs.states import (
    ACTION_SOURCES,
    FINISHED,
    TRANSITIONS,
    JobStatus,
    allowed_actions,
    allowed_sources,
)

LEGAL = {
    ("pending", "queued"),
    ("pending", "running"),
    ("pending", "cancelled"),
    ("queued", "running"),
    ("queued", "cancelled"),
    ("queued", "failed"),
    ("running", "paused"),
    ("running", "completed"),
    ("running", "failed"),
    ("running", "cancelled"),
    ("paused", "queued"),
    ("paused", "running"),
    ("paused", "cancelled"),
    ("failed", "queued"),
    ("failed", "running"),
}


@pytest.mark.parametrize("source", list(JobStatus))
@pytest.mark.parametrize("target", list(JobStatus))
def test_transition_table(source, target):
    assert (target in TRANSITIONS[source]) == ((source.value, target.value) in LEGAL)


def test_finished_jobs_only_leave_by_resuming_a_failure():
    for status in FINISHED:
        assert TRANSITIONS[status] <= {JobStatus.RUNNING, JobStatus.QUEUED}
    assert allowed_sources(JobStatus.QUEUED) == {JobStatus.PENDING, JobStatus.PAUSED, JobStatus.FAILED}


def test_every_action_that_moves_a_job_follows_the_transition_table():
    moves = {"start": [JobStatus.RUNNING, JobStatus.QUEUED], "resume": [JobStatus.RUNNING, JobStatus.QUEUED]}
    moves |= {"pause": [JobStatus.PAUSED], "stop": [JobStatus.CANCELLED]}
    for action, targets in moves.items():
        for target in targets:
            assert all(target in TRANSITIONS[source] for source in ACTION_SOURCES[action]), action
    # Start and resume lead into the queue; the scheduler alone takes a job out of it.
    assert ACTION_SOURCES["start"] | ACTION_SOURCES["resume"] == allowed_sources(JobStatus.QUEUED)
    assert allowed_sources(JobStatus.RUNNING) == allowed_sources(JobStatus.QUEUED) | {JobStatus.QUEUED}
    assert ACTION_SOURCES["stop"] == allowed_sources(JobStatus.CANCELLED)


def test_allowed_actions_per_status_and_while_a_request_is_pending():
    assert allowed_actions(JobStatus.PENDING, None) == ["start", "stop", "delete"]
    assert allowed_actions(JobStatus.QUEUED, None) == ["stop"]
    assert allowed_actions(JobStatus.RUNNING, None) == ["pause", "stop"]
    assert allowed_actions(JobStatus.RUNNING, "pause") == ["stop"]
    assert allowed_actions(JobStatus.PAUSED, None) == ["resume", "stop", "delete"]
    assert allowed_actions(JobStatus.FAILED, None) == ["resume", "delete"]
    assert allowed_actions(JobStatus.COMPLETED, None) == ["delete"]
