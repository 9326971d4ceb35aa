import pytest

from training_platform.jobs.states import FINISHED, TRANSITIONS, JobStatus, allowed_sources, can_transition

LEGAL = {
    ("pending", "running"),
    ("pending", "cancelled"),
    ("running", "paused"),
    ("running", "completed"),
    ("running", "failed"),
    ("running", "cancelled"),
    ("paused", "running"),
    ("paused", "cancelled"),
    ("failed", "running"),
}


@pytest.mark.parametrize("source", list(JobStatus))
@pytest.mark.parametrize("target", list(JobStatus))
def test_transition_table(source, target):
    assert can_transition(source, target) == ((source.value, target.value) in LEGAL)


def test_finished_jobs_only_leave_by_resuming_a_failure():
    for status in FINISHED:
        assert TRANSITIONS[status] <= {JobStatus.RUNNING}
    assert allowed_sources(JobStatus.RUNNING) == {JobStatus.PENDING, JobStatus.PAUSED, JobStatus.FAILED}
