"""The findings store on SQLite and PostgreSQL: one finding per kind and rule whose step range grows, reading the
same signals again changes nothing, a rewrite keeps ids and actions, non-finite evidence survives JSON."""

import math

import pytest

from training_platform.db.tables import Job
from training_platform.diagnostics.detectors import Signal
from training_platform.diagnostics.store import FindingStore, decode_evidence


@pytest.fixture
def store(db):
    with db.session() as session:
        for job_id in ("job-a", "job-b"):
            session.add(
                Job(
                    id=job_id,
                    name=job_id,
                    algorithm="sft",
                    engine="trl",
                    model_path="/m",
                    dataset_paths=[],
                    params={},
                    status="running",
                    output_dir="/o",
                )
            )
        session.commit()
    return FindingStore(db)


def nan_at(step: int) -> Signal:
    return Signal("non_finite", "critical", step, {"loss": math.nan, "grad_norm": -math.inf}, {"keys": "loss"})


def grad(step: int, severity: str = "warning") -> Signal:
    return Signal("grad_explosion", severity, step, {"grad_norm": 150.0 + step}, {"limit": 100.0})


def test_a_kind_that_keeps_firing_is_one_finding_whose_last_step_moves(store):
    changes = store.merge("job-a", [grad(5), grad(6)])
    assert [(c.finding.kind, c.new) for c in changes] == [("grad_explosion", True)]
    assert store.merge("job-a", [grad(7), grad(8)]) == []  # known, same severity: nothing to announce
    [finding] = store.query("job-a")
    assert (finding.first_step, finding.last_step, finding.evidence) == (5, 8, {"grad_norm": 158.0})
    updated = finding.updated_at
    assert store.merge("job-a", [grad(6), grad(7)]) == []  # read again (a restart replaying the job)
    [again] = store.query("job-a")
    assert (again.first_step, again.last_step, again.updated_at) == (5, 8, updated)
    assert store.query("job-b") == []


def test_a_rise_in_severity_is_announced_and_non_finite_evidence_survives(store):
    store.merge("job-a", [grad(5)])
    changes = store.merge("job-a", [grad(9, "critical"), nan_at(10)])
    assert sorted((c.finding.kind, c.new) for c in changes) == [("grad_explosion", False), ("non_finite", True)]
    assert store.merge("job-a", [grad(11, "critical")]) == []  # already critical
    rows = {row.kind: row for row in store.query("job-a")}
    assert rows["grad_explosion"].severity == "critical"
    assert rows["non_finite"].evidence == {"loss": "NaN", "grad_norm": "-Infinity"}
    decoded = decode_evidence(rows["non_finite"].evidence)
    assert math.isnan(decoded["loss"]) and decoded["grad_norm"] == -math.inf
    assert [row.kind for row in store.query("job-a", severities=["critical"])] == ["grad_explosion", "non_finite"]
    assert [row.kind for row in store.query("job-a", start_step=10, end_step=10)] == ["grad_explosion", "non_finite"]
    assert [row.kind for row in store.query("job-a", end_step=9)] == ["grad_explosion"]


def test_a_rewrite_keeps_ids_and_actions_and_drops_what_is_no_longer_found(store):
    store.merge("job-a", [grad(5), nan_at(10)])
    ids = {row.kind: row.id for row in store.query("job-a")}
    assert store.take_action(ids["grad_explosion"], "lower_lr")
    assert not store.take_action(ids["grad_explosion"], "lower_lr")  # never twice
    changes = store.replace("job-a", [grad(7), grad(8)])
    assert changes == []
    [row] = store.query("job-a")
    assert (row.id, row.first_step, row.last_step, row.actions) == (ids["grad_explosion"], 7, 8, ["lower_lr"])
    assert store.replace("job-a", [grad(7), grad(8)]) == [] and store.query("job-a")[0].updated_at == row.updated_at
