"""Nothing dropped or misread without a word, over real HTTP (issue 24): JSON told from JSON Lines by what a file
holds, the accepted file types listed once, a dataset's format changed in place with its audits forgotten, length
outliers that do not flag Chinese text, and chat templates that drop a row's tools or tool calls warned about in the
loss preview and at job creation."""

import json
import random
import time
from pathlib import Path

import httpx
import pytest

from tests.datasets.corpus import openai_tools, tool_aware_model
from tests.support.helpers import ServerProcess
from training_platform.datafiles.layout import SUPPORTED_SUFFIXES


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = ServerProcess(home=tmp_path_factory.mktemp("shapes_home"))
    server.start()
    yield server
    server.shutdown()


def upload(server: ServerProcess, name: str, filename: str, content: bytes, **params):
    query = {"name": name, "kind": "sft", "filename": filename, **params}
    return server.api.post("/datasets/upload", params=query, content=content)


def finished(server: ServerProcess, dataset: str, task: dict) -> dict:
    deadline = time.monotonic() + 120
    while task["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, task
        time.sleep(0.2)
        task = server.api.get(f"/datasets/{dataset}/tasks/{task['id']}").json()
    assert task["status"] == "completed", task
    return task


def lines(rows: list[dict]) -> bytes:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows).encode()


def test_json_and_json_lines_are_read_by_what_the_file_holds(server):
    rows = [{"prompt": f"q{i}", "response": f"a{i}"} for i in range(3)]
    # JSON Lines under .json, as LLaMA-Factory (Hugging Face datasets' json loader) reads it.
    named_json = upload(server, "lines-as-json", "lines.json", lines(rows))
    assert named_json.status_code == 201, named_json.text
    assert (named_json.json()["num_rows"], named_json.json()["file_format"]) == (3, "jsonl")
    # A JSON array under .jsonl: read as the array it is.
    array = json.dumps([{**row, "prompt": row["prompt"] + "!"} for row in rows], indent=1).encode()
    named_jsonl = upload(server, "array-as-jsonl", "array.jsonl", array)
    assert named_jsonl.status_code == 201 and named_jsonl.json()["file_format"] == "json", named_jsonl.text
    page = server.api.get("/datasets/array-as-jsonl/rows").json()
    assert [row["data"]["prompt"] for row in page["rows"]] == ["q0!", "q1!", "q2!"]
    # One object over several lines is neither, and the answer says what a JSON file may hold.
    document = upload(server, "one-object", "object.json", b'{\n  "prompt": "q",\n  "response": "a"\n}\n')
    assert document.status_code == 422
    assert "must hold a JSON array of objects or JSON Lines" in document.json()["errors"][0]["message"]


def test_the_accepted_file_types_are_one_list_shown_everywhere(server):
    answer = server.api.get("/datasets/file-types").json()
    assert answer["suffixes"] == list(SUPPORTED_SUFFIXES) and ".arrow" in answer["suffixes"]
    assert all(suffix in answer["summary"] for suffix in SUPPORTED_SUFFIXES)
    # The document is built at its first request: seconds on a loaded machine, more than httpx's default 5.
    document = httpx.get(f"{server.url}/openapi.json", headers=server.auth_headers, timeout=120).json()
    upload_route = document["paths"]["/api/v1/datasets/upload"]["post"]
    [filename] = [p for p in upload_route["parameters"] if p["name"] == "filename"]
    assert answer["summary"] in filename["description"]
    help_text = server.cli("datasets", "upload", "--help").stdout
    assert all(suffix in help_text for suffix in SUPPORTED_SUFFIXES), help_text


def test_a_datasets_format_changes_in_place_and_its_audits_are_forgotten(server, tmp_path):
    # Rows that fit the platform's own fields and, through their other columns, the alpaca preset too.
    rows = [
        {"prompt": f"p{i}", "response": f"r{i}", "instruction": f"Add {i} and {i}.", "output": str(2 * i)}
        for i in range(8)
    ]
    path = tmp_path / "both.jsonl"
    path.write_bytes(lines(rows))
    created = server.api.post("/datasets", json={"name": "both", "path": str(path), "kind": "sft"})
    assert created.status_code == 201 and created.json()["preset"] is None, created.text
    audit = finished(server, "both", server.api.post("/datasets/both/audit", json={}).json())
    findings = server.api.get(f"/datasets/both/tasks/{audit['id']}").json()["findings"]
    [unused] = [f for f in findings if f["kind"] == "unused_column"]
    assert sorted(unused["details"]["columns"]) == ["instruction", "output"], findings
    # The same content under another format was a 409; changing the format in place is the way.
    again = server.api.post("/datasets", json={"name": "both-alpaca", "path": str(path), "kind": "sft"})
    assert again.status_code == 409

    changed = server.api.patch("/datasets/both", json={"preset": "alpaca"})
    assert changed.status_code == 200, changed.text
    assert changed.json()["preset"] == "alpaca"
    first = server.api.get("/datasets/both/rows", params={"normalised": True, "limit": 1}).json()["rows"][0]
    assert first["data"]["messages"][-1] == {"role": "assistant", "content": "0"}, first
    # The audit that read the rows as the platform's own is gone, with its report.
    assert [task for task in server.api.get("/datasets/both/tasks").json() if task["kind"] == "audit"] == []
    assert server.api.get(f"/datasets/reports/{audit['result']['report']}").status_code == 404

    # A format that more rows fail than the current one is refused, naming the rows; nothing changes.
    refused = server.api.patch("/datasets/both", json={"preset": "sharegpt"})
    assert refused.status_code == 422 and "rows 1, 2" in refused.json()["errors"][0]["message"], refused.text
    assert server.api.get("/datasets/both").json()["preset"] == "alpaca"
    # 'auto' detects it again: the platform's own fields fit first.
    detected = server.api.patch("/datasets/both", json={"preset": "auto"})
    assert detected.status_code == 200 and detected.json()["preset"] is None, detected.text
    # An unknown preset is refused by the schema.
    assert server.api.patch("/datasets/both", json={"preset": "nope"}).status_code == 422


CHINESE = ["今天天气很好", "请解释一下光合作用的原理", "植物通过叶绿体吸收阳光", "这是一个关于历史的问题"]
CHINESE += ["我们需要更多的数据", "机器学习模型需要训练", "请用简单的语言回答", "中国的首都是北京"]
CHINESE += ["水在一百度时沸腾", "地球围绕太阳运行"]


def chinese_rows(count: int = 1000) -> list[dict]:
    """Chinese prompts and answers of every length, one answer in fifteen quoting a line of code, as LLaMA-Factory's
    alpaca_zh_demo does: counted in whitespace words, those 67 answers were length outliers."""
    rng = random.Random(0)
    rows = []
    for index in range(count):
        response = "，".join(rng.choices(CHINESE, k=rng.randint(2, 12))) + "。"
        if index % 15 == 0:
            response += " 例如 print('hello world') 或 for i in range(10): total += i"
        rows.append({"prompt": "，".join(rng.choices(CHINESE, k=rng.randint(1, 4))) + "？", "response": response})
    return rows


def test_chinese_rows_are_no_length_outliers_without_a_tokenizer(server):
    created = upload(server, "chinese", "zh.jsonl", lines(chinese_rows()))
    assert created.status_code == 201, created.text
    task = finished(server, "chinese", server.api.post("/datasets/chinese/audit", json={}).json())
    findings = server.api.get(f"/datasets/chinese/tasks/{task['id']}").json()["findings"]
    assert [f for f in findings if f["kind"] == "length_outlier"] == [], findings
    measure = "length outliers (estimated tokens: a CJK character 1"
    assert any(check.startswith(measure) for check in task["result"]["checks"]), task["result"]
    stats = server.api.get("/datasets/chinese/stats").json()
    assert stats["tokenizer"].startswith("estimated tokens")


def test_a_chat_template_that_drops_tools_is_warned_about(server, demo_assets, tmp_path):
    data = openai_tools(tmp_path / "tools.jsonl")
    assert server.api.post("/datasets", json={"name": "tools", "path": str(data), "kind": "sft"}).status_code == 201
    aware = tool_aware_model(demo_assets["model"], tmp_path / "aware")

    def preview(model: Path) -> dict:
        answer = server.api.get("/datasets/tools/rows/1/preview", params={"tokenizer": str(model)})
        assert answer.status_code == 200, answer.text
        return answer.json()

    # The demo model's template renders neither the tools nor an assistant's tool calls.
    assert preview(demo_assets["model"])["warnings"] == [
        "the tools list (weather) is not rendered",
        "the tool calls (weather) are not rendered",
    ]
    assert preview(aware)["warnings"] == []

    def create(name: str, model: Path) -> list[dict]:
        body = {
            "name": name,
            "algorithm": "sft",
            "model_path": str(model),
            "dataset_paths": ["dataset:tools"],
            "params": {"learning_rate": 1e-3, "batch_size": 2, "micro_batch_size": 2, "max_steps": 1},
        }
        created = server.api.post("/jobs", json=body)
        assert created.status_code == 201, created.text
        return [e for e in server.api.get(f"/jobs/{name}/events").json() if e["kind"] == "warning"]

    [warning] = create("drops-tools", demo_assets["model"])
    assert warning["code"] == "job.template_drops" and str(data) in warning["message"], warning
    assert "row 1" in warning["message"] and "the tool calls (weather) are not rendered" in warning["message"]
    chinese = server.api.get("/jobs/drops-tools/events", headers={"Accept-Language": "zh-CN"}).json()
    assert any("对话模板" in event["message"] for event in chinese)
    assert create("renders-tools", aware) == []
