"""Bad requests over real HTTP: 422 naming the field (and row), 409 for illegal transitions, 404; nothing changes."""

import json

import pytest


@pytest.fixture
def body(demo_assets):
    return dict(
        name="api-errors",
        algorithm="sft",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        params={"learning_rate": 1e-3, "batch_size": 8, "micro_batch_size": 8, "max_steps": 3},
    )


def job_count(server) -> int:
    return len(server.api.get("/jobs").json())


@pytest.mark.parametrize(
    ("change", "field", "fragment"),
    [
        ({"algorithm": "rlhf"}, "algorithm", "Input should be 'sft', 'dpo', 'grpo', 'gspo' or 'ppo'"),
        ({"model_path": None}, "model_path", "Input should be a valid string"),
        ({"model_path": "/nowhere"}, "model_path", "not under the platform's data roots"),
        ({"dataset_paths": []}, "dataset_paths", "at least 1 item"),
        ({"dataset_paths": ["/nowhere.jsonl"]}, "dataset_paths.0", "not under the platform's data roots"),
        ({"params": {"learning_rate": -0.1}}, "params.learning_rate", "greater than 0"),
        ({"name": "bad name!"}, "name", "use letters, digits, '.', '_' and '-' only"),
        ({"surprise": 1}, "surprise", "Extra inputs are not permitted"),
        ({"health": {"detectors": {"nope": {}}}}, "health.detectors.nope", "Extra inputs are not permitted"),
        (
            {"health": {"detectors": {"grad_explosion": {"ceiling": -1}}}},
            "health.detectors.grad_explosion.ceiling",
            "greater than 0",
        ),
        ({"health": {"actions": {"lr_factor": 2}}}, "health.actions.lr_factor", "less than 1"),
    ],
)
def test_invalid_job_is_a_422_naming_the_field(server, body, change, field, fragment):
    before = job_count(server)
    request = {**body, **change}
    if change.get("model_path", "") is None:
        del request["model_path"]
        fragment = "Field required"
    response = server.api.post("/jobs", json=request)
    assert response.status_code == 422, response.text
    payload = response.json()
    messages = {e["field"]: e["message"] for e in payload["errors"]}
    assert field in messages, payload
    assert fragment in messages[field]
    assert field in payload["detail"]
    assert job_count(server) == before


def test_four_invalid_fields_answer_four_messages_at_once_in_the_readers_language(server, body):
    """Each error has its field and code; `Accept-Language: zh-CN` reads them in Chinese, anything else in English."""
    request = {**body, "name": "bad name!", "algorithm": "rlhf", "dataset_paths": [], "start": "maybe"}
    chinese = server.api.post("/jobs", json=request, headers={"accept-language": "zh-CN,zh;q=0.9,en;q=0.5"})
    english = server.api.post("/jobs", json=request)
    assert chinese.status_code == english.status_code == 422, chinese.text
    answered = {e["field"]: (e["code"], e["message"]) for e in chinese.json()["errors"]}
    expected = {
        "name": ("validation.string_pattern_mismatch", "只能使用字母、数字、“.”、“_”和“-”，并以字母或数字开头"),
        "algorithm": ("validation.enum", "须为以下之一：'sft', 'dpo', 'grpo', 'gspo' or 'ppo'"),
        "dataset_paths": ("validation.too_short", "至少需要 1 项"),
        "start": ("validation.bool_parsing", "须为布尔值（true 或 false）"),
    }
    assert answered == expected
    assert "name: 只能使用字母" in chinese.json()["detail"]
    in_english = {e["field"]: (e["code"], e["message"]) for e in english.json()["errors"]}
    assert in_english["dataset_paths"] == (
        "validation.too_short",
        "List should have at least 1 item after validation, not 0",
    )
    assert in_english.keys() == expected.keys()
    assert all(job["name"] != "bad name!" for job in server.api.get("/jobs").json())


def test_a_bad_name_does_not_hide_the_other_problems_of_a_job(server, body):
    """Pydantic refuses the name before the service reads the rest: the parameters and the data are checked all the
    same, and one answer names the four problems, each in words of the reader's language (no pydantic English)."""
    params = {**body["params"], "learning_rate": 0, "max_length": 1}
    request = {**body, "name": "bad name!", "dataset_paths": ["dataset:no-such-data"], "params": params}
    for path in ("/jobs", "/jobs/preview"):
        response = server.api.post(path, json=request, headers={"accept-language": "zh-CN"})
        assert response.status_code == 422, response.text
        answered = {e["field"]: (e["code"], e["message"]) for e in response.json()["errors"]}
        assert answered == {
            "name": ("validation.string_pattern_mismatch", "只能使用字母、数字、“.”、“_”和“-”，并以字母或数字开头"),
            "params.learning_rate": ("validation.greater_than", "须大于 0.0"),
            "params.max_length": (
                "validation.sequence_too_short",
                "1 个 token 容纳不下套用对话模板的提示和可供学习的回答（模板标记本身就占 10–30 个 token）：至少设为 32",
            ),
            "dataset_paths.0": ("job.unknown_dataset", "没有名为“no-such-data”的已登记数据集（数据集页面列出了全部）"),
        }
    english = server.api.post("/jobs", json=request).json()["errors"]
    assert {e["field"]: e["message"] for e in english}["params.max_length"].endswith("give at least 32")
    assert not any("pattern" in e["message"] for e in english)
    # What is no job at all is still FastAPI's to answer: no body, or no mapping.
    assert [e["field"] for e in server.api.post("/jobs").json()["errors"]] == ["body"]
    assert server.api.post("/jobs/preview", json=[request]).status_code == 422
    not_json = server.api.post("/jobs", content=b'{"name": ', headers={"content-type": "application/json"})
    assert not_json.status_code == 422 and not_json.json()["errors"][0]["code"] == "validation.json_invalid"
    assert all(job["name"] != "bad name!" for job in server.api.get("/jobs").json())


def test_dataset_rows_missing_fields_are_a_422_naming_field_and_row(server, body, tmp_path):
    data = tmp_path / "rows.jsonl"
    data.write_text(json.dumps({"prompt": "ok", "response": "ok"}) + "\n" + json.dumps({"prompt": "q"}) + "\n")
    response = server.api.post("/jobs", json={**body, "dataset_paths": [str(data)]})
    assert response.status_code == 422
    assert response.json()["errors"] == [
        {"field": "dataset_paths.0", "message": "missing required field 'response'", "row": 2}
    ]
    assert "dataset_paths.0 row 2: missing required field 'response'" in response.json()["detail"]


def test_ppo_on_the_trl_engine_is_refused(server, body, demo_assets):
    request = {
        **body,
        "algorithm": "ppo",
        "dataset_paths": [str(demo_assets["grpo"])],
        "params": {"reward_model_path": str(demo_assets["model"]), "batch_size": 2, "rollout_n": 4},
    }
    response = server.api.post("/jobs", json=request)
    assert response.status_code == 422
    assert "Use engine 'verl' for PPO" in response.json()["errors"][0]["message"]


def test_illegal_transitions_are_409_and_change_nothing(server, body):
    job = server.create_job(**{**body, "name": "api-409"})
    for action in ("pause", "resume"):
        response = server.api.post(f"/jobs/{job['id']}/{action}")
        assert response.status_code == 409
        assert response.json()["detail"].endswith(
            f"it is pending ({action} is allowed when it is "
            + ("running)" if action == "pause" else "failed or paused)")
        )
    after = server.job(job["id"])
    assert (after["status"], after["updated_at"], after["requested_action"]) == ("pending", job["updated_at"], None)
    assert len(server.api.get(f"/jobs/{job['id']}/events").json()) == 1
    assert server.api.post(f"/jobs/{job['id']}/stop").json()["status"] == "cancelled"
    assert server.api.post(f"/jobs/{job['id']}/start").status_code == 409
    assert server.api.post("/jobs", json={**body, "name": "api-409"}).status_code == 409


def test_unknown_things_are_404(server):
    for path in ("/jobs/nope", "/jobs/nope/events", "/jobs/nope/checkpoints", "/jobs/nope/logs", "/models/nope"):
        response = server.api.get(path)
        assert response.status_code == 404, path
        assert "nope" in response.json()["detail"]
    assert server.api.post("/jobs/nope/start").status_code == 404


def test_bad_query_parameters_are_422(server):
    response = server.api.get("/jobs", params={"status": "sleeping"})
    assert response.status_code == 422 and response.json()["errors"][0]["field"] == "status.0"
    response = server.api.get("/jobs/x/logs", params={"stream": "stdin"})
    assert response.status_code == 422 and response.json()["errors"][0]["field"] == "stream"


def test_delete_keeps_or_removes_files(server, body, tmp_path):
    from pathlib import Path

    kept = server.create_job(**{**body, "name": "api-del-1"})
    removed = server.create_job(**{**body, "name": "api-del-2"})
    assert server.api.delete(f"/jobs/{kept['id']}").status_code == 204
    assert server.api.delete(f"/jobs/{removed['id']}", params={"delete_files": True}).status_code == 204
    assert Path(kept["output_dir"]).exists() and not Path(removed["output_dir"]).exists()
    assert server.api.get(f"/jobs/{kept['id']}").status_code == 404


def test_models_and_datasets_can_be_registered_by_path(server, demo_assets):
    model = server.api.post("/models", json={"name": "tiny", "path": str(demo_assets["model"])})
    assert model.status_code == 201 and model.json()["architecture"] == "qwen2"
    assert server.api.post("/models", json={"name": "tiny", "path": str(demo_assets["model"])}).status_code == 409
    bad = server.api.post("/models", json={"name": "x", "path": str(demo_assets["sft"])})
    assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "path"
    dataset = server.api.post("/datasets", json={"name": "d", "path": str(demo_assets["dpo"]), "kind": "dpo"})
    assert dataset.status_code == 201 and dataset.json()["num_rows"] == 128
    wrong_kind = server.api.post("/datasets", json={"name": "e", "path": str(demo_assets["dpo"]), "kind": "sft"})
    assert wrong_kind.status_code == 422 and "rows 1, 2" in wrong_kind.json()["errors"][0]["message"]
    assert [d["name"] for d in server.api.get("/datasets").json()] == ["d"]
