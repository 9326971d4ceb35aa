"""The datasets API over real HTTP: streamed uploads, refusals with rows, background audits, previews."""

import json
import time

import pytest

from tests.datasets.files import clean_sft_rows, write_jsonl
from tests.support.helpers import ServerProcess

LIMIT = 200_000


@pytest.fixture(scope="module")
def datasets_server(tmp_path_factory):
    server = ServerProcess(home=tmp_path_factory.mktemp("datasets_home"))
    server.env["PLATFORM_DATASET_MAX_UPLOAD_BYTES"] = str(LIMIT)
    server.start()
    yield server
    server.shutdown()


def chunks(data: bytes, size: int = 1000):
    for start in range(0, len(data), size):
        yield data[start : start + size]


def upload(server, data: bytes, **params):
    query = {"kind": "sft", "filename": "data.jsonl", **params}
    return server.api.post("/datasets/upload", params=query, content=chunks(data))


def stored(server) -> list[str]:
    root = server.home / "datasets" / "files"
    return sorted(p.name for p in root.rglob("*") if p.is_file()) if root.exists() else []


def wait(server, dataset: str, task: dict) -> dict:
    deadline = time.monotonic() + 120
    while task["status"] in ("queued", "running"):
        assert time.monotonic() < deadline
        time.sleep(0.2)
        task = server.api.get(f"/datasets/{dataset}/tasks/{task['id']}").json()
    return task


def test_upload_browse_and_preview(datasets_server, demo_assets, tmp_path):
    server = datasets_server
    rows = [{"q": r["prompt"], "a": r["response"], "data_source": r["data_source"]} for r in clean_sft_rows()]
    data = write_jsonl(tmp_path / "qa.jsonl", rows).read_bytes()
    created = upload(server, data, name="qa", field=["prompt=q", "response=a"], label_fields=["data_source"])
    assert created.status_code == 201, created.text
    dataset = created.json()
    assert dataset["field_mapping"] == {"prompt": "q", "response": "a"} and dataset["num_rows"] == 24
    assert stored(server) == ["data.jsonl"]
    assert [d["name"] for d in server.api.get("/datasets", params={"kind": "sft"}).json()] == ["qa"]

    page = server.api.get("/datasets/qa/rows", params={"offset": 22, "limit": 5}).json()
    assert page["total"] == 24 and [r["row"] for r in page["rows"]] == [23, 24]
    assert page["rows"][0]["data"]["q"] == rows[22]["q"]

    preview = server.api.get("/datasets/qa/rows/2/preview", params={"tokenizer": str(demo_assets["model"])})
    assert preview.status_code == 200, preview.text
    [sequence] = preview.json()["sequences"]
    highlighted = "".join(span["text"] for span in sequence["spans"] if span["loss"])
    assert highlighted.startswith(rows[1]["a"]) and rows[1]["q"] not in highlighted
    assert preview.json()["chat_template"] is True

    stats = server.api.get("/datasets/qa/stats", params={"bins": 4}).json()
    assert stats["labels"][0]["field"] == "data_source" and stats["tokenizer"].startswith("estimated tokens")
    assert [length["field"] for length in stats["lengths"]] == ["prompt", "response"]

    missing = server.api.get("/datasets/qa/rows/99/preview", params={"tokenizer": str(demo_assets["model"])})
    assert missing.status_code == 404
    assert server.api.get("/datasets/nope/stats").status_code == 404


def test_refused_uploads_name_field_and_row_and_leave_nothing(datasets_server):
    server = datasets_server
    before = stored(server)
    bad_rows = b'{"prompt": "p", "response": "r"}\n{"prompt": "p2"}\n{"prompt": "\xff"}\n'
    response = upload(server, bad_rows, name="bad")
    assert response.status_code == 422
    body = response.json()
    assert body["errors"][:2] == [
        {"field": "file", "row": 2, "message": "missing required field 'response'", "code": "dataset.field_missing"},
        {"field": "file", "row": 3, "message": "not valid UTF-8 (byte 13 of the line)"},
    ]
    report_url = body["errors"][-1]["message"].rsplit(" ", 1)[1].removeprefix("/api/v1")
    assert [p["row"] for p in server.api.get(report_url).json()["problems"]] == [2, 3]

    escape = upload(server, b'{"prompt": "p", "response": "r"}\n', name="x", filename="../../etc/passwd")
    assert escape.status_code == 422 and escape.json()["errors"][0]["field"] == "filename"
    bad_name = upload(server, b"{}", name="../../etc/passwd")
    assert bad_name.status_code == 422 and bad_name.json()["errors"][0]["field"] == "name"
    too_big = upload(server, b'{"prompt": "p", "response": "r"}\n' * (LIMIT // 20), name="big")
    assert too_big.status_code == 413 and "larger than the limit" in too_big.json()["detail"]
    empty = upload(server, b"", name="empty")
    assert empty.status_code == 422 and "0 bytes" in empty.json()["errors"][0]["message"]
    assert stored(server) == before


def test_a_preset_row_that_cannot_be_read_names_its_row_and_own_field(datasets_server):
    server = datasets_server
    turn = {"from": "human", "value": "What is 2 plus 2?"}
    rows = [
        {"conversations": [turn, {"from": "gpt", "value": "It is 4."}]},
        {"conversations": [turn, {"from": "bot", "value": "It is 4."}]},  # a tag the sharegpt preset does not know
    ]
    data = "".join(json.dumps(row) + "\n" for row in rows).encode()
    refused = upload(server, data, name="chats", preset="sharegpt")
    assert refused.status_code == 422
    error = refused.json()["errors"][0]
    assert (error["field"], error["row"]) == ("file", 2) and "conversations[1].from" in error["message"]
    detected = server.api.post("/datasets/detect", json={"kind": "sft", "rows": rows[:1]}).json()
    assert detected["preset"] == "sharegpt" and detected["rows"][0]["data"]["messages"][1]["role"] == "assistant"
    created = upload(server, data[: data.index(b"\n") + 1], name="chats")
    assert created.status_code == 201 and created.json()["preset"] == "sharegpt"
    normalised = server.api.get("/datasets/chats/rows", params={"normalised": "true"}).json()["rows"][0]["data"]
    assert [m["role"] for m in normalised["messages"]] == ["user", "assistant"]
    unknown = upload(server, data, name="chats2", preset="yaml")
    assert unknown.status_code == 422 and unknown.json()["errors"][0]["field"] == "preset"
    assert server.api.delete("/datasets/chats").status_code == 204
    assert not any((server.home / "datasets" / ".incoming").iterdir())
    assert {d["name"] for d in server.api.get("/datasets").json()} <= {"qa", "raw"}


def test_background_audit_search_needs_an_index_and_delete(datasets_server, tmp_path):
    server = datasets_server
    rows = clean_sft_rows() + [clean_sft_rows()[4]]
    created = upload(server, json.dumps(rows).encode(), name="raw", filename="raw.json")
    assert created.status_code == 201, created.text
    started = server.api.post("/datasets/raw/audit", json={"near_threshold": 0.9})
    assert started.status_code == 202 and started.json()["status"] in ("queued", "running", "completed")
    task = wait(server, "raw", started.json())
    assert (task["status"], task["progress"], task["result"]["summary"]) == ("completed", 1.0, {"exact_duplicate": 2})
    assert task["findings"][0]["rows"] == [5, 25] and task["findings_total"] == 1
    report = server.api.get(f"/datasets/reports/{task['result']['report']}")
    assert report.headers["content-disposition"].startswith("attachment")
    assert report.json()["findings"][0]["kind"] == "exact_duplicate"
    assert [t["id"] for t in server.api.get("/datasets/raw/tasks").json()] == [task["id"]]

    assert server.api.get("/datasets/raw/index").json() == {"ready": False}
    refused = server.api.post("/datasets/raw/search", json={"query": "volcanoes"})
    assert refused.status_code == 409 and "build it first" in refused.json()["detail"]
    bad = server.api.post("/datasets/raw/audit", json={"near_threshold": 2})
    assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "near_threshold"

    converted = server.api.post("/datasets/raw/convert", json={"validation_fraction": 0.2})
    assert [d["name"] for d in converted.json()] == ["raw-trl-train", "raw-trl-validation"]
    assert server.api.delete("/datasets/raw").status_code == 204
    assert server.api.get("/datasets/raw").status_code == 404
    assert "raw.json" not in stored(server)
    assert server.api.get("/datasets/raw-trl-train").json()["parent_id"] is None


def test_the_kinds_and_the_algorithms_say_what_the_ui_offers(datasets_server):
    """The web UI keeps no copy of them: a kind's fields and presets, an algorithm's datasets and whether it is RL."""
    kinds = {info["kind"]: info for info in datasets_server.api.get("/datasets/kinds").json()}
    assert list(kinds) == ["sft", "dpo", "grpo", "gspo", "ppo", "eval"]
    assert kinds["sft"]["fields"] == ["prompt", "response", "messages"] and "alpaca" in kinds["sft"]["presets"]
    assert kinds["grpo"] == {"kind": "grpo", "fields": ["prompt", "data_source", "solution"], "presets": ["verl-rl"]}
    algorithms = {info["name"]: info for info in datasets_server.api.get("/algorithms").json()}
    assert [name for name, info in algorithms.items() if info["rl"]] == ["grpo", "gspo", "ppo"]
    assert algorithms["ppo"]["dataset_kinds"] == ["ppo", "grpo", "gspo"]
