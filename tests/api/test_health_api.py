"""Training health through the real server: an external verl metrics file with planted faults, ingested with the
CLI, diagnosed live and again on demand; findings, the health state, one step's diagnosis, the CLI's report."""

import json
import math

import pytest


def verl_run(path, steps: int = 200) -> None:
    """A verl GRPO file logger's lines: healthy, but for gradients above 100 in steps 100-109, a KL of 5 at step
    150 and a NaN loss at step 180."""
    with open(path, "w", encoding="utf-8") as handle:
        for step in range(1, steps + 1):
            data = {
                "actor/loss": math.nan if step == 180 else 0.5 - step / 1000,
                "actor/grad_norm": 500.0 if 100 <= step < 110 else 1.0 + (step % 7) / 10,
                "actor/kl_loss": 5.0 if step == 150 else 0.01,
                "critic/score/mean": 0.5 + (step % 5) / 100,
            }
            handle.write(json.dumps({"step": step, "data": data}) + "\n")


def summary(findings: list[dict]) -> list[tuple]:
    return sorted((f["kind"], f["rule"], f["severity"], f["first_step"], f["last_step"]) for f in findings)


PLANTED = [
    ("grad_explosion", None, "warning", 100, 109),
    ("kl_explosion", "ceiling", "critical", 150, 150),
    ("non_finite", None, "critical", 180, 180),
]


@pytest.mark.slow
def test_an_ingested_verl_file_shows_its_planted_faults_and_diagnosing_again_changes_nothing(server, tmp_path):
    path = tmp_path / "verl.jsonl"
    verl_run(path)
    result = server.cli("metrics", "ingest", str(path), "--job", "planted-verl")
    assert result.returncode == 0, result.stderr

    live = server.api.get("/jobs/planted-verl/health").json()
    assert live["health"] == "critical"
    assert summary(live["findings"]) == PLANTED  # found while it was read, before anyone asked

    diagnosed = server.api.post("/jobs/planted-verl/diagnose").json()
    assert summary(diagnosed["findings"]) == PLANTED
    again = server.api.post("/jobs/planted-verl/diagnose").json()
    assert again["findings"] == diagnosed["findings"]  # same rows: ids, steps, evidence
    assert server.cli("metrics", "ingest", str(path), "--job", "planted-verl").returncode == 0
    assert server.api.get("/jobs/planted-verl/health").json()["findings"] == diagnosed["findings"]

    non_finite = next(f for f in diagnosed["findings"] if f["kind"] == "non_finite")
    assert non_finite["evidence"] == {"loss": "NaN"}
    assert "loss not finite (NaN or Inf) at step 180" in non_finite["text"]["en"]["message"]
    assert "第 180 步" in non_finite["text"]["zh-CN"]["message"]
    assert non_finite["text"]["en"]["suggestions"]

    job = next(job for job in server.api.get("/jobs").json() if job["name"] == "planted-verl")
    assert job["health"] == "critical"


@pytest.mark.slow
def test_findings_filter_and_one_step_diagnosis(server, tmp_path):
    path = tmp_path / "verl.jsonl"
    verl_run(path)
    assert server.cli("metrics", "ingest", str(path), "--job", "planted-filter").returncode == 0
    findings = server.api.get("/jobs/planted-filter/findings", params={"severity": "critical"}).json()
    assert {f["kind"] for f in findings} == {"kl_explosion", "non_finite"}
    in_range = server.api.get("/jobs/planted-filter/findings", params={"start_step": 100, "end_step": 120}).json()
    assert [f["kind"] for f in in_range] == ["grad_explosion"]
    by_kind = server.api.get("/jobs/planted-filter/findings", params={"kind": "non_finite"}).json()
    assert [f["kind"] for f in by_kind] == ["non_finite"]
    reversed_range = server.api.get("/jobs/planted-filter/findings", params={"start_step": 9, "end_step": 3})
    assert reversed_range.status_code == 422 and reversed_range.json()["errors"][0]["field"] == "start_step"
    bad_severity = server.api.get("/jobs/planted-filter/findings", params={"severity": "fatal"})
    assert bad_severity.status_code == 422

    at_nan = server.api.get("/jobs/planted-filter/health/steps/180").json()
    assert at_nan["logged"] and at_nan["has_anomaly"]
    assert [signal["kind"] for signal in at_nan["signals"]] == ["non_finite"]
    quiet = server.api.get("/jobs/planted-filter/health/steps/50").json()
    assert quiet["logged"] and not quiet["has_anomaly"] and quiet["signals"] == []
    assert not server.api.get("/jobs/planted-filter/health/steps/5000").json()["logged"]

    report = server.cli("jobs", "health", "planted-filter")
    assert report.returncode == 0, report.stderr
    assert "critical, 3 findings" in report.stdout
    assert "non_finite (step 180)" in report.stdout and "grad_explosion (step 100-109)" in report.stdout
    chinese = server.cli("jobs", "health", "planted-filter", "--step", "180", "--language", "zh-CN")
    assert "第 180 步" in chinese.stdout


def test_the_defaults_are_published(server):
    defaults = server.api.get("/health/defaults").json()
    assert defaults["detectors"]["grad_explosion"] == {"enabled": True, "ceiling": 100.0, "steps": 5}
    assert defaults["actions"]["pause_on_non_finite"] is False
