"""The diagnostics service inside a real platform (SQLite and PostgreSQL): findings made while steps are ingested,
detectors whose windows survive a server restart, the log read at the end of a run, a bad job never raising."""

import json

from training_platform.contract.layout import JobLayout
from training_platform.db.tables import Job
from training_platform.metrics.ingest import MetricsIngester
from training_platform.metrics.reader import LocalFileSource, StepRecord
from training_platform.platform import Platform


def write_steps(path, steps, grad_norm) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        for step in steps:
            data = {"actor/loss": 0.5, "actor/grad_norm": grad_norm(step)}
            handle.write(json.dumps({"step": step, "data": data}) + "\n")


def ingest(platform: Platform, job_id: str, path) -> None:
    source = LocalFileSource(path)
    MetricsIngester(platform.metrics.store, job_id, source, watchers=platform.metrics.watchers).ingest_all()


def explodes(step: int) -> float:
    return 500.0 if 98 <= step < 106 else 1.0


def test_a_streak_that_spans_a_server_restart_is_found_where_one_pass_finds_it(settings, tmp_path):
    path = tmp_path / "run.jsonl"
    write_steps(path, range(1, 101), explodes)
    platform = Platform.open(settings)
    try:
        job_id = platform.jobs.get_or_create_external("restarted", "test").id
        ingest(platform, job_id, path)
        assert platform.diagnostics.health(job_id).findings == []  # 3 steps above the ceiling: not yet 5
    finally:
        platform.close()
    write_steps(path, range(101, 201), explodes)
    platform = Platform.open(settings)  # a new server: its detectors replay steps 1-100 from the store first
    try:
        ingest(platform, job_id, path)
        [finding] = platform.diagnostics.health(job_id).findings
        assert (finding.kind, finding.first_step, finding.last_step) == ("grad_explosion", 98, 105)
        assert platform.diagnostics.diagnose_job(job_id).findings == [finding]  # one pass over it all agrees
        assert platform.jobs.get(job_id).health == "warning"
    finally:
        platform.close()


def test_the_log_of_an_ended_run_is_read_for_fatal_lines(platform, tmp_path):
    job = Job(
        id="oomjob",
        name="oom-job",
        algorithm="sft",
        engine="trl",
        model_path="/m",
        dataset_paths=[],
        params={},
        status="failed",
        output_dir=str(tmp_path / "oomjob"),
    )
    platform.jobs.store.add(job, "test")
    layout = JobLayout(job.id, tmp_path / "oomjob")
    layout.logs_dir.mkdir(parents=True)
    layout.stdout_path.write_text("step 1\n" * 1000 + "x" * 100_000 + "\n")  # a long line is cut, not fatal
    layout.stderr_path.write_text("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
    platform.diagnostics.job_finished(platform.jobs.find(job.id))
    [finding] = platform.diagnostics.health(job.id).findings
    assert (finding.kind, finding.rule, finding.severity) == ("oom", "gpu", "critical")
    assert "micro_batch_size" in " ".join(finding.text["en"].suggestions)
    assert platform.jobs.get(job.id).health == "critical"


def test_steps_of_a_job_that_is_gone_are_dropped_without_raising(platform, caplog):
    platform.diagnostics.steps_read("no-such-job", [StepRecord(step=1, values={"loss": float("nan")}, line_number=1)])
    assert "diagnosing steps of job no-such-job failed" in caplog.text
