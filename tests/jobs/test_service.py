"""Creating jobs through the service, on SQLite and PostgreSQL: every bad input is named, nothing half-made."""

import json

import pytest

from training_platform.contract.params import Algorithm
from training_platform.errors import ConflictError, InvalidInputError
from training_platform.jobs.schemas import JobCreate

SFT_PARAMS = {"learning_rate": 1e-3, "batch_size": 8, "micro_batch_size": 8, "max_steps": 5}


def request(demo_assets, **overrides) -> JobCreate:
    body = dict(
        name="run-1",
        algorithm=Algorithm.SFT,
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        params=SFT_PARAMS,
    )
    return JobCreate(**{**body, **overrides})


def assert_nothing_created(platform):
    assert platform.jobs.list_jobs([], 100, 0) == []
    assert not platform.settings.jobs_dir.exists() or not any(platform.settings.jobs_dir.iterdir())


def test_create_stores_resolved_paths_and_validated_params(platform, demo_assets):
    job = platform.jobs.create(request(demo_assets))
    assert job.status == "pending"
    assert job.params["max_steps"] == 5 and job.params["lr_scheduler"] == "cosine"
    assert "algorithm" not in job.params
    assert job.allowed_actions == ["start", "stop", "delete"] and job.progress is None
    assert [e.kind for e in platform.jobs.events("run-1")] == ["created"]


@pytest.mark.parametrize(
    ("overrides", "field", "fragment"),
    [
        ({"params": {**SFT_PARAMS, "learning_rate": -1}}, "params.learning_rate", "greater than 0"),
        # ROOT: a directory under the platform's data roots (outside them, tests/jobs/test_paths.py).
        ({"model_path": "ROOT/no/such/model"}, "model_path", "does not exist"),
        ({"dataset_paths": ["ROOT/no/such/data.jsonl"]}, "dataset_paths.0", "does not exist"),
        ({"dataset_paths": ["ROOT/no/such/data.xlsx"]}, "dataset_paths.0", "unsupported file type"),
        ({"model_path": "/no/such/model"}, "model_path", "not under the platform's data roots"),
        ({"engine": "nope"}, "engine", "unknown engine 'nope'; available: trl"),
        ({"params": {**SFT_PARAMS, "num_gpus": 0}}, "params.num_gpus", "greater than 0"),
    ],
)
def test_bad_input_names_the_field_and_creates_nothing(platform, demo_assets, overrides, field, fragment):
    overrides = json.loads(json.dumps(overrides).replace("ROOT", str(demo_assets["model"].parent)))
    with pytest.raises(InvalidInputError) as caught:
        platform.jobs.create(request(demo_assets, **overrides))
    messages = {e.field: e.message for e in caught.value.errors}
    assert field in messages, messages
    assert fragment in messages[field]
    assert_nothing_created(platform)


def test_ppo_is_refused_by_the_trl_engine_pointing_at_verl(platform, demo_assets):
    body = request(
        demo_assets,
        algorithm=Algorithm.PPO,
        dataset_paths=[str(demo_assets["grpo"])],
        params={"reward_model_path": str(demo_assets["model"]), "batch_size": 4, "rollout_n": 2},
    )
    with pytest.raises(InvalidInputError) as caught:
        platform.jobs.create(body)
    [error] = caught.value.errors
    assert error.field == "algorithm" and "Use engine 'verl' for PPO" in error.message
    assert_nothing_created(platform)


def test_rows_missing_required_fields_are_reported_with_their_row(platform, demo_assets, tmp_path):
    data = tmp_path / "bad.jsonl"
    rows = [
        {"prompt": "a", "response": "b"},
        {"prompt": "c"},
        {"prompt": "", "response": "d"},
        "not an object",
        {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]},
    ]
    data.write_text("\n".join(json.dumps(r) for r in rows) + "\n{broken\n")
    with pytest.raises(InvalidInputError) as caught:
        platform.jobs.create(request(demo_assets, dataset_paths=[str(data)]))
    found = [(e.field, e.row, e.message) for e in caught.value.errors]
    assert found == [
        ("dataset_paths.0", 2, "missing required field 'response'"),
        ("dataset_paths.0", 3, "field 'prompt' is empty"),
        ("dataset_paths.0", 4, "is not a JSON object"),
        ("dataset_paths.0", 6, "invalid JSON: Expecting property name enclosed in double quotes at column 2"),
    ]
    assert_nothing_created(platform)


def test_grpo_answer_field_must_exist_in_the_data(platform, demo_assets):
    body = request(
        demo_assets,
        algorithm=Algorithm.GRPO,
        dataset_paths=[str(demo_assets["grpo"])],
        params={"batch_size": 2, "rollout_n": 4, "micro_batch_size": 8, "rewards": [{"answer_field": "answer"}]},
    )
    with pytest.raises(InvalidInputError) as caught:
        platform.jobs.create(body)
    messages = {(e.field, e.row): e.message for e in caught.value.errors}
    assert messages[("dataset_paths.0", 1)] == "missing required field 'answer'"
    assert messages[("params.rewards.0.answer_field", None)].startswith("column 'answer' not found in dataset")


def test_too_many_bad_rows_are_counted_not_all_listed(platform, demo_assets, tmp_path):
    data = tmp_path / "bad.jsonl"
    data.write_text("".join(json.dumps({"prompt": f"q{i}"}) + "\n" for i in range(50)))
    with pytest.raises(InvalidInputError) as caught:
        platform.jobs.create(request(demo_assets, dataset_paths=[str(data)]))
    errors = caught.value.errors
    assert len(errors) == platform.settings.dataset_error_limit + 1
    assert errors[-1].message == "50 of 50 rows are invalid; the first 20 are listed"


def test_duplicate_name_conflicts(platform, demo_assets):
    platform.jobs.create(request(demo_assets))
    with pytest.raises(ConflictError, match="already exists"):
        platform.jobs.create(request(demo_assets))
    assert len(platform.jobs.list_jobs([], 100, 0)) == 1


def test_illegal_actions_conflict(platform, demo_assets):
    platform.jobs.create(request(demo_assets))
    for action in (platform.jobs.pause, platform.jobs.resume):
        with pytest.raises(ConflictError, match="it is pending"):
            action("run-1")
    assert platform.jobs.stop("run-1").status == "cancelled"
    with pytest.raises(ConflictError, match="it is cancelled"):
        platform.jobs.start("run-1")
