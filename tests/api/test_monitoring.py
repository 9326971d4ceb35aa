"""Monitoring over real HTTP and WebSockets: live steps from a real TRL job, reconnects, playback, queries."""

import csv
import io
import json
import math
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.support.helpers import ServerProcess


def ws_url(server: ServerProcess, path: str) -> str:
    return server.url.replace("http", "ws") + "/api/v1" + path


def receive_until_finished(socket, limit: int = 100_000) -> list[dict]:
    messages = []
    for _ in range(limit):
        message = json.loads(socket.recv(timeout=120))
        messages.append(message)
        if message["type"] == "finished":
            return messages
    raise AssertionError("no finished message")


def steps_of(messages: list[dict]) -> list[int]:
    """The steps of the trainer's records (a system sample is a metric message of a step already sent, too)."""
    return [m["data"]["step"] for m in messages if m["type"] == "metric" and "loss" in m["data"]]


def sft_job(server: ServerProcess, demo_assets, name: str, steps: int, learning_rate: float = 3e-3) -> dict:
    return server.create_job(
        name=name,
        algorithm="sft",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        params={"learning_rate": learning_rate, "batch_size": 8, "micro_batch_size": 8, "max_steps": steps},
    )


def write_lines(path: Path, records: list[dict]) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record) + "\n")


@pytest.mark.slow
def test_live_viewers_get_every_step_of_a_running_job_then_finished(server, demo_assets):
    job = sft_job(server, demo_assets, "live-1", steps=40)
    with (
        connect(ws_url(server, f"/monitoring/{job['id']}/live"), additional_headers=server.auth_headers) as first,
        connect(ws_url(server, f"/monitoring/{job['name']}/live"), additional_headers=server.auth_headers) as second,
    ):
        assert json.loads(first.recv(timeout=10))["type"] == "status"  # pending; the viewer waits
        assert server.api.post(f"/jobs/{job['id']}/start").status_code == 200
        messages = receive_until_finished(first)
        others = receive_until_finished(second)
    assert steps_of(messages) == list(range(1, 41)) == steps_of(others)
    assert messages[-1] == {"type": "finished", "status": "completed"}
    metric = next(m for m in messages if m["type"] == "metric")["data"]
    assert {"step", "timestamp", "loss", "learning_rate", "gradient", "performance"} <= metric.keys()
    assert metric["loss"]["total_loss"] > 0 and metric["timestamp"].startswith("20")
    statuses = [m["data"] for m in messages if m["type"] == "status"]
    assert statuses[-1]["status"] == "completed" and statuses[-1]["current_step"] == 40
    # Everything the viewers saw is in the store too.
    stored = server.api.get(f"/monitoring/{job['id']}/metrics", params={"keys": "loss"}).json()["series"][0]
    assert stored["steps"] == list(range(1, 41))


@pytest.mark.slow
def test_a_reconnecting_viewer_gets_the_gap(server, demo_assets):
    job = sft_job(server, demo_assets, "live-reconnect", steps=250, learning_rate=1e-3)
    server.api.post(f"/jobs/{job['id']}/start")
    with connect(ws_url(server, f"/monitoring/{job['id']}/live"), additional_headers=server.auth_headers) as socket:
        seen = []
        while len(seen) < 20:
            message = json.loads(socket.recv(timeout=120))
            if message["type"] == "metric":
                seen.append(message["data"]["step"])
    server.wait_for_step(job["id"], seen[-1] + 30)  # steps go by while the viewer is away
    with connect(
        ws_url(server, f"/monitoring/{job['id']}/live?since_step={seen[-1]}"), additional_headers=server.auth_headers
    ) as socket:
        rest = steps_of(receive_until_finished(socket))
    assert rest == list(range(seen[-1] + 1, 251))
    assert seen == list(range(1, seen[-1] + 1))


@pytest.mark.slow
def test_playback_at_10x_sends_every_step_in_order_with_progress(server, demo_assets):
    job = sft_job(server, demo_assets, "playback", steps=30)
    server.api.post(f"/jobs/{job['id']}/start")
    server.wait_for_status(job["id"], "completed")
    with connect(
        ws_url(server, f"/monitoring/{job['id']}/playback?speed=10"), additional_headers=server.auth_headers
    ) as socket:
        messages = []
        while True:
            messages.append(json.loads(socket.recv(timeout=60)))
            if messages[-1]["type"] == "playback_complete":
                break
    assert messages[0] == {"type": "playback_info", "total_metrics": 30, "start_step": 1, "end_step": 30, "speed": 10.0}
    metrics = messages[1:-1]
    assert [m["data"]["step"] for m in metrics] == list(range(1, 31))
    assert [m["current_index"] for m in metrics] == list(range(30)) and metrics[-1]["progress"] == 1.0
    with connect(
        ws_url(server, f"/monitoring/{job['id']}/playback?start_step=10&end_step=12&speed=0.5"),
        additional_headers=server.auth_headers,
    ) as socket:
        info = json.loads(socket.recv(timeout=10))
        assert (info["total_metrics"], info["start_step"], info["end_step"]) == (3, 10, 12)


def test_an_imported_series_keeps_a_planted_spike_when_downsampled(server, tmp_path):
    path = tmp_path / "run.jsonl"
    records = [{"step": s, "timestamp": 1e9 + s, "loss": {"total_loss": 1 + math.sin(s / 500)}} for s in range(60_000)]
    records[31_415]["loss"]["total_loss"] = 1e6
    write_lines(path, records)
    result = server.cli("metrics", "ingest", str(path), "--job", "imported-run")
    assert result.returncode == 0, result.stderr
    assert "60000 step records, 120000 values" in result.stdout
    response = server.api.get("/monitoring/imported-run/metrics", params={"keys": "loss", "max_points": 500})
    series = response.json()["series"][0]
    assert series["downsampled"] and series["total_points"] == 60_000 and len(series["steps"]) <= 500
    assert 31_415 in series["steps"] and series["values"][series["steps"].index(31_415)] == 1e6
    assert series["steps"][0] == 0 and series["steps"][-1] == 59_999
    job = server.job("imported-run")
    assert (job["engine"], job["status"], job["algorithm"]) == ("external", "completed", "external")
    keys = server.api.get("/monitoring/imported-run/metrics/keys").json()
    assert keys == [
        {"key": "loss", "points": 60_000, "first_step": 0, "last_step": 59_999},
        {"key": "timestamp", "points": 60_000, "first_step": 0, "last_step": 59_999},
    ]


def test_reingest_picks_up_only_what_is_new_even_after_a_rewrite(server, tmp_path):
    path = tmp_path / "verl.jsonl"
    path.write_text("".join(f'{{"step":{s},"data":{{"train/loss":{10 - s}}}}}\n' for s in range(1, 6)))
    first = server.cli("metrics", "ingest", str(path), "--job", "verl-import")
    assert "5 step records, 5 values" in first.stdout
    again = server.cli("metrics", "ingest", str(path), "--job", "verl-import")
    assert "0 step records, 0 values from 0 new bytes" in again.stdout
    with open(path, "a") as handle:
        handle.write('{"step":6,"data":{"train/loss":4}}\n{"step":6,"data":{"val/loss":4.5}}\n')
    grown = server.cli("metrics", "ingest", str(path), "--job", "verl-import")
    assert "2 step records, 2 values" in grown.stdout
    path.write_text('{"step":4,"data":{"train/loss":40}}\n{"step":5,"data":{"train/loss":50}}\n')  # verl resumed at 3
    rewritten = server.cli("metrics", "ingest", str(path), "--job", "verl-import")
    assert "2 step records, 2 values" in rewritten.stdout and "rewritten 1x" in rewritten.stdout
    series = server.api.get("/monitoring/verl-import/metrics").json()["series"]
    by_key = {s["key"]: dict(zip(s["steps"], s["values"], strict=True)) for s in series}
    assert by_key["loss"] == {1: 9, 2: 8, 3: 7, 4: 40, 5: 50, 6: 4} and by_key["eval_loss"] == {6: 4.5}


def test_malformed_lines_are_counted_with_their_line_numbers_and_the_rest_is_ingested(server, tmp_path):
    path = tmp_path / "bad.jsonl"
    write_lines(path, [{"step": 1, "loss": {"total_loss": 1.0}}])
    with open(path, "a") as handle:
        handle.write("not json\n")
    write_lines(path, [{"step": 2, "loss": {"total_loss": float("nan")}, "anomaly": {"type": "nan", "message": "x"}}])
    result = server.cli("metrics", "ingest", str(path), "--job", "bad-lines")
    assert result.returncode == 0 and "2 step records" in result.stdout
    assert "line 2" in result.stderr and "invalid JSON" in result.stderr
    series = server.api.get("/monitoring/bad-lines/metrics", params={"keys": ["loss"]}).json()["series"][0]
    assert series["values"] == [1.0, "NaN"]
    assert server.api.get("/monitoring/bad-lines/metrics/anomalies").json() == [
        {"step": 2, "kind": "nan", "message": "x"}
    ]


def test_sync_of_a_platform_job_reports_malformed_lines(server, demo_assets):
    job = sft_job(server, demo_assets, "sync-me", steps=5)
    metrics_path = Path(job["output_dir"]) / f"{job['id']}_metrics.jsonl"
    write_lines(metrics_path, [{"step": 1, "loss": {"total_loss": 2.0}}])
    with open(metrics_path, "a") as handle:
        handle.write('{"step": "one"}\n')
    report = server.api.post(f"/monitoring/{job['id']}/metrics/sync").json()
    assert (report["records"], report["values"]) == (1, 1)
    assert report["malformed"] == [{"line_number": 2, "reason": "'step' must be an integer from 0 to 2**62, got 'one'"}]
    assert server.api.post(f"/monitoring/{job['id']}/metrics/sync").json()["records"] == 0


def test_export_as_csv_and_parquet(server, tmp_path):
    import io

    import pyarrow.parquet as pq

    path = tmp_path / "e.jsonl"
    write_lines(path, [{"step": s, "loss": {"total_loss": s / 10}, "kl": {"mean": 0.1}} for s in range(1, 4)])
    server.cli("metrics", "ingest", str(path), "--job", "export-me")
    csv = server.api.get("/monitoring/export-me/metrics/export", params={"format": "csv"})
    assert csv.status_code == 200 and csv.text.splitlines()[0] == '"step","kl","loss"'
    assert csv.text.splitlines()[1] == "1,0.1,0.1"
    parquet = server.api.get("/monitoring/export-me/metrics/export", params={"format": "parquet"})
    table = pq.read_table(io.BytesIO(parquet.content))
    assert table.column_names == ["step", "kl", "loss"] and table.num_rows == 3


def test_csv_export_keeps_metric_names_from_becoming_formulas_and_numbers_numbers(server, tmp_path):
    """OWASP's CSV injection: a text cell starting with = + - @ tab or CR gets a single quote before it; values
    stay numbers, a negative one too (Parquet, not for spreadsheets, keeps the names as they are)."""
    names = ['=HYPERLINK("http://x")', "+cmd", "-2+3", "@SUM(A1)", "\tx", "ok-name"]
    path = tmp_path / "formulas.jsonl"
    write_lines(path, [{"step": 1, "custom": {name: -0.5 for name in names}}])
    server.cli("metrics", "ingest", str(path), "--job", "formula-names")
    exported = server.api.get("/monitoring/formula-names/metrics/export", params={"format": "csv"})
    header, row = csv.reader(io.StringIO(exported.text))
    assert header == ["step", *("'" + name if name != "ok-name" else name for name in sorted(names))]
    assert row == ["1"] + ["-0.5"] * len(names)
    parquet = server.api.get("/monitoring/formula-names/metrics/export", params={"format": "parquet"})
    assert sorted(pq.read_table(io.BytesIO(parquet.content)).column_names) == sorted(["step", *names])


def test_bad_monitoring_requests(server, tmp_path):
    assert server.api.get("/monitoring/nope/metrics").status_code == 404
    assert server.api.post("/monitoring/nope/metrics/sync").status_code == 404
    path = tmp_path / "x.jsonl"
    write_lines(path, [{"step": 1, "loss": {"total_loss": 1.0}}])
    server.cli("metrics", "ingest", str(path), "--job", "bad-requests")
    zero = server.api.get("/monitoring/bad-requests/metrics", params={"max_points": 0})
    assert zero.status_code == 422 and zero.json()["errors"][0]["field"] == "max_points"
    inverted = server.api.get("/monitoring/bad-requests/metrics", params={"start_step": 9, "end_step": 2})
    assert inverted.status_code == 422 and inverted.json()["errors"][0]["field"] == "start_step"
    with pytest.raises(InvalidStatus):
        connect(ws_url(server, "/monitoring/nope/live"), additional_headers=server.auth_headers)
    with pytest.raises(InvalidStatus):
        connect(ws_url(server, "/monitoring/bad-requests/playback?speed=20"), additional_headers=server.auth_headers)
    bad_name = server.cli("metrics", "ingest", str(path), "--job", "no spaces allowed")
    assert bad_name.returncode == 1 and "job: use letters, digits" in bad_name.stderr
