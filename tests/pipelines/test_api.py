"""The pipelines API on a real server (its stages on the server's threads): every refusal of a definition, in YAML
and in JSON, is one 422 listing each problem with its stage (the stages of a cycle, the YAML line) and creates
nothing; stage types and templates; a pipeline's life (draft, start, run, conditions, retries, cancel, resume,
edit, delete) with stages that need no model: `empty` ones, and `register` ones whose path is under test."""

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.pipelines.conftest import (
    create,
    jobs,
    pipeline,
    pipeline_server,
    register_demo_assets,
    shown,
    stages_of,
    wait_for_pipeline,
    wait_for_stage,
)
from tests.support.helpers import ServerProcess

STAGE_TYPES = {"dataset", "train", "evaluate", "select", "merge", "average", "lora_fold", "export", "register", "empty"}
TEMPLATES = {"sft-dpo-keep-better", "sft-grpo-select-evaluate"}


@pytest.fixture(scope="module")
def api_server(tmp_path_factory, demo_assets) -> Iterator[ServerProcess]:
    home = tmp_path_factory.mktemp("pipelines_api") / "home"
    home.mkdir()
    server = pipeline_server(home)
    server.start()
    try:
        register_demo_assets(server, demo_assets)  # the stages' models and datasets, as their services check them
        yield server
    finally:
        server.shutdown()


@pytest.fixture
def canary(tmp_path) -> Path:
    """Where code run from a definition would leave a file."""
    folder = tmp_path / "canary"
    folder.mkdir()
    return folder


def train(name: str, *depends_on: str, **params) -> dict:
    body = {"algorithm": "sft", "model_path": "model:demo-tiny-qwen2", "dataset_paths": ["dataset:demo-sft"], **params}
    return {"name": name, "type": "train", "depends_on": list(depends_on), "params": body}


def empty(name: str, *depends_on: str, **fields) -> dict:
    return {"name": name, "type": "empty", "depends_on": list(depends_on), **fields}


def refused(server: ServerProcess, source: dict, name: str, client: httpx.Client | None = None) -> list[dict]:
    """The errors of a definition refused by both /validate and create (the same 422), after which nothing exists:
    no pipeline of that name, no new pipeline, no job."""
    client = client or server.api
    pipelines_before, jobs_before = server.api.get("/pipelines").json(), jobs(server)
    checked = client.post("/pipelines/validate", json=source)
    assert checked.status_code == 422, checked.text
    made = client.post("/pipelines", json={**source, "start": True})
    assert made.status_code == 422, made.text
    assert made.json() == checked.json()
    body = made.json()
    assert body["errors"] and all(error["message"] in body["detail"] for error in body["errors"]), body
    assert server.api.get(f"/pipelines/{name}").status_code == 404
    assert server.api.get("/pipelines").json() == pipelines_before
    assert jobs(server) == jobs_before
    return body["errors"]


def by_code(errors: list[dict]) -> dict[str, dict]:
    found = {error["code"]: error for error in errors}
    assert len(found) == len(errors), errors
    return found


# -- refusals: nothing is created, every problem is listed


CYCLE_YAML = """\
name: cyclic
stages:
  - name: a
    type: empty
    depends_on: [c]
  - name: b
    type: empty
    depends_on: [a]
  - name: c
    type: empty
    depends_on: [b]
  - name: d
    type: empty
    depends_on: [nowhere]
"""


def test_a_cycle_and_an_unknown_dependency_in_yaml_are_listed_with_their_stages_and_lines(api_server):
    errors = by_code(refused(api_server, {"text": CYCLE_YAML}, "cyclic"))
    assert set(errors) == {"cycle", "unknown_dependency"}
    cycle = errors["cycle"]
    assert sorted(cycle["stages"]) == ["a", "b", "c"] and cycle["stage"] in cycle["stages"]
    assert cycle["line"] == {"a": 5, "b": 8, "c": 11}[cycle["stage"]]
    assert all(name in cycle["message"] for name in ("a", "b", "c"))
    unknown = errors["unknown_dependency"]
    assert (unknown["stage"], unknown["line"], unknown["field"]) == ("d", 14, "stages.3.depends_on.0")
    assert "nowhere" in unknown["message"]


def test_a_cycle_and_an_unknown_dependency_in_json_are_listed_with_their_stages(api_server):
    definition = {"name": "cyclic", "stages": [empty("a", "b"), empty("b", "a"), empty("d", "nowhere")]}
    errors = by_code(refused(api_server, {"definition": definition}, "cyclic"))
    assert sorted(errors["cycle"]["stages"]) == ["a", "b"]
    assert errors["unknown_dependency"]["stage"] == "d"
    assert all("line" not in error for error in errors.values())


DANGLING_YAML = """\
name: dangling
stages:
  - name: sft
    type: train
    params: {algorithm: sft, model_path: model:demo-tiny-qwen2, dataset_paths: ["dataset:demo-sft"]}
  - name: other
    type: train
    params: {algorithm: sft, model_path: model:demo-tiny-qwen2, dataset_paths: ["dataset:demo-sft"]}
  - name: dpo
    type: train
    depends_on: [sft]
    params:
      algorithm: dpo
      model_path: ${other.model}
      dataset_paths: ["${sft.metrics.accuracy}"]
"""


def test_references_to_a_stage_not_depended_on_or_to_an_output_its_type_lacks_are_refused(api_server):
    errors = refused(api_server, {"text": DANGLING_YAML}, "dangling")
    assert [(error["stage"], error["field"], error["line"], error["code"]) for error in errors] == [
        ("dpo", "stages.2.params.model_path", 14, "reference"),
        ("dpo", "stages.2.params.dataset_paths.0", 15, "reference"),
    ]
    assert "'other' is not among the dependencies of 'dpo'" in errors[0]["message"]
    assert "a train stage has no output 'metrics.accuracy'" in errors[1]["message"]

    definition = {
        "name": "dangling",
        "stages": [train("sft"), train("other"), train("dpo", "sft", model_path="${other.model}")],
    }
    errors = refused(api_server, {"definition": definition}, "dangling")
    assert [(error["stage"], error["field"]) for error in errors] == [("dpo", "stages.2.params.model_path")]


def test_a_stage_parameter_is_refused_with_the_message_of_the_stages_own_api(api_server):
    bad_train = train("sft", algorithm="nope")
    bad_eval = {"name": "score", "type": "evaluate", "params": {"dataset": "d", "metrics": [{"name": "exact_match"}]}}
    definition = {"name": "bad-params", "stages": [bad_train, bad_eval]}
    errors = refused(api_server, {"definition": definition}, "bad-params")
    found = {(error["stage"], error["field"]): error["message"] for error in errors}
    assert set(found) == {("sft", "stages.0.params.algorithm"), ("score", "stages.1.params.target")}, errors
    # The same message as POST /jobs and POST /evaluations give for the same field.
    own = api_server.api.post("/jobs", json={**bad_train["params"], "name": "x"}).json()["errors"]
    assert found[("sft", "stages.0.params.algorithm")] == next(e["message"] for e in own if e["field"] == "algorithm")
    own = api_server.api.post("/evaluations", json=bad_eval["params"]).json()["errors"]
    assert found[("score", "stages.1.params.target")] == next(e["message"] for e in own if e["field"] == "target")

    text = "name: bad-params\nstages:\n  - name: sft\n    type: train\n    params: {algorithm: nope}\n"
    errors = refused(api_server, {"text": text}, "bad-params")
    assert {(error["stage"], error["line"]) for error in errors} == {("sft", 5)}, errors


def test_a_stage_parameter_its_service_refuses_is_refused_before_anything_is_created(api_server, demo_assets):
    """A value POST /jobs refuses after its request model (a learning rate below zero, a model outside the data
    roots) is a 422 for the pipeline too, naming the stage; not a pipeline that fails when the stage launches."""
    good = {
        "algorithm": "sft",
        "model_path": str(demo_assets["model"]),
        "dataset_paths": [str(demo_assets["sft"])],
        "params": {"max_steps": 2},
    }
    for change, field in (
        ({"params": {"learning_rate": -1}}, "params.learning_rate"),
        ({"model_path": "/etc"}, "model_path"),
    ):
        own = api_server.api.post("/jobs", json={**good, **change, "name": "direct"})
        assert own.status_code == 422 and own.json()["errors"][0]["field"] == field, own.text
        stage = {"name": "sft", "type": "train", "params": {**good, **change}}
        errors = refused(api_server, {"definition": {"name": "refused-later", "stages": [stage]}}, "refused-later")
        assert [(error["stage"], error["field"]) for error in errors] == [("sft", f"stages.0.params.{field}")]


def test_anchors_aliases_and_tags_are_refused_and_nothing_they_name_runs(api_server, canary):
    bomb = "name: bomb\nx: &a [1, 1, 1, 1]\ny: &b [*a, *a, *a, *a]\nz: [*b, *b, *b, *b]\nstages: []\n"
    errors = refused(api_server, {"text": bomb}, "bomb")
    assert errors[0]["code"] == "yaml" and "anchors and aliases" in errors[0]["message"], errors
    tagged = f'name: tagged\nstages: !!python/object/apply:os.system ["touch {canary / "tag"}"]\n'
    errors = refused(api_server, {"text": tagged}, "tagged")
    assert errors[0]["code"] == "yaml" and errors[0]["line"] == 2, errors
    assert list(canary.iterdir()) == []


def test_an_oversize_definition_is_refused(api_server):
    characters = "name: big\ndescription: " + "x" * (256 * 1024) + "\nstages: [{name: a, type: empty}]\n"
    errors = refused(api_server, {"text": characters}, "big")
    assert errors[0]["field"] == "text" and "262144" in errors[0]["message"]
    multibyte = "name: big\ndescription: " + "é" * (128 * 1024) + "\nstages: [{name: a, type: empty}]\n"
    errors = refused(api_server, {"text": multibyte}, "big")
    assert errors == [{"field": "text", "message": "the pipeline is over 262144 bytes", "code": "too_long"}]


def chain(count: int, backwards: bool = False) -> str:
    """A pipeline of `count` empty stages, each depending on the next one (`backwards`) or on the one before."""
    lines = ["name: chain", "stages:"]
    for index in range(count):
        after = index + 1 if backwards else index - 1
        depends = f", depends_on: [s{after}]" if 0 <= after < count else ""
        lines.append(f"  - {{name: s{index}, type: empty{depends}}}")
    return "\n".join(lines) + "\n"


OVERSIZE = {
    "nested-5000-deep": ({"text": "name: chain\nx: " + "[" * 5000 + "]" * 5000 + "\nstages: []\n"}, "text"),
    "501-stages": ({"text": chain(501)}, "stages"),
    "1200-stages-each-after-its-dependency": ({"text": chain(1200, backwards=True)}, "stages"),
    "501-stages-in-json": (
        {"definition": {"name": "chain", "stages": [empty(f"s{i}") for i in range(501)]}},
        "definition.stages",
    ),
}


@pytest.mark.parametrize("case", OVERSIZE, ids=list(OVERSIZE))
def test_a_definition_nested_too_deep_or_with_too_many_stages_is_refused_with_its_reason(api_server, case):
    source, field = OVERSIZE[case]
    # A connection of its own: a request that crashes its handler leaves no other test's connection broken.
    with httpx.Client(base_url=f"{api_server.url}/api/v1", headers=api_server.auth_headers, timeout=60) as client:
        errors = refused(api_server, source, "chain", client)
    assert [error["field"] for error in errors] == [field], errors[:3]
    assert field == "text" or "500" in errors[0]["message"], errors[0]  # the limit on stages, named


def test_a_condition_that_is_code_and_a_reference_with_shell_words_are_refused_unrun(api_server, canary):
    code = f"__import__('os').system('touch {canary / 'condition'}')"
    text = f"""\
name: hostile
stages:
  - name: sft
    type: train
    params: {{algorithm: sft, model_path: model:demo-tiny-qwen2, dataset_paths: ["dataset:demo-sft"]}}
  - name: after
    type: empty
    depends_on: [sft]
    when: "{code}"
  - name: dpo
    type: train
    depends_on: [sft]
    params:
      algorithm: dpo
      model_path: "${{sft.model; touch {canary / "shell"}}}"
      dataset_paths: ["$(touch {canary / "substitution"})", "${{sft.`id`}}"]
"""
    errors = refused(api_server, {"text": text}, "hostile")
    found = {(error["stage"], error["field"], error["line"], error["code"]) for error in errors}
    assert found == {
        ("after", "stages.1.when", 9, "condition"),
        ("dpo", "stages.2.params.model_path", 15, "reference"),
        ("dpo", "stages.2.params.dataset_paths.1", 16, "reference"),
    }, errors
    assert list(canary.iterdir()) == []

    definition = {"name": "hostile", "stages": [empty("first"), empty("after", "first", when=code)]}
    errors = refused(api_server, {"definition": definition}, "hostile")
    assert [(error["stage"], error["code"]) for error in errors] == [("after", "condition")]
    assert list(canary.iterdir()) == []


def test_a_source_is_text_or_definition_and_a_name_is_taken_once(api_server):
    both = {"text": "name: x\nstages: [{name: a, type: empty}]\n", "definition": {"name": "x", "stages": [empty("a")]}}
    assert api_server.api.post("/pipelines/validate", json=both).status_code == 422
    assert api_server.api.post("/pipelines/validate", json={}).status_code == 422
    source = {"definition": {"name": "taken", "stages": [empty("a")]}}
    assert api_server.api.post("/pipelines", json=source).status_code == 201
    again = api_server.api.post("/pipelines", json=source)
    assert again.status_code == 409 and "taken" in again.json()["detail"]
    assert api_server.api.delete("/pipelines/taken").status_code == 204


# -- what the API offers


def test_stage_types_and_templates(api_server):
    types = {stage["type"]: stage for stage in api_server.api.get("/pipelines/stage-types").json()}
    assert set(types) == STAGE_TYPES
    assert types["train"]["outputs"] == ["job", "model", "checkpoints.best", "checkpoints.last"]
    assert "metrics.*" in types["evaluate"]["outputs"] and types["empty"]["outputs"] == []
    assert "algorithm" in types["train"]["params_schema"]["properties"]
    templates = {template["name"]: template for template in api_server.api.get("/pipelines/templates").json()}
    assert set(templates) == TEMPLATES
    for template in templates.values():
        assert template["title"] and template["description"]
        checked = api_server.api.post("/pipelines/validate", json={"text": template["text"]})
        assert checked.status_code == 200, checked.text
        assert checked.json()["name"] == template["name"]
    layers = api_server.api.post("/pipelines/validate", json={"text": templates["sft-dpo-keep-better"]["text"]})
    assert layers.json()["layers"] == [["sft"], ["dpo", "eval_sft"], ["eval_dpo"], ["keep_dpo", "keep_sft"]]


# -- a pipeline's life


def test_a_draft_starts_runs_on_the_servers_threads_and_is_deleted(api_server):
    text = "name: life\ndescription: three empty stages\nstages:\n  - {name: a, type: empty}\n"
    text += "  - {name: b, type: empty, depends_on: [a]}\n  - {name: c, type: empty, depends_on: [a]}\n"
    draft = create(api_server, text=text, start=False)
    assert draft["status"] == "draft" and draft["executor"] == "in-process" and draft["text"] == text
    assert draft["layers"] == [["a"], ["b", "c"]] and draft["stage_counts"] == {"pending": 3}
    assert all(stage["attempt"] == 0 and stage["task_id"] is None for stage in draft["stages"])
    summary = next(found for found in api_server.api.get("/pipelines").json() if found["name"] == "life")
    assert summary["status"] == "draft" and summary["description"] == "three empty stages"

    started = api_server.api.post("/pipelines/life/start")
    assert started.status_code == 200, started.text
    done = wait_for_pipeline(api_server, "life", timeout=30)
    assert done["status"] == "completed" and done["stage_counts"] == {"completed": 3}, shown(done)
    for stage in done["stages"]:
        assert stage["attempt"] == 1 and stage["task_id"] and stage["worker"] == "server", stage
        assert stage["outputs"] == {} and stage["error"] is None and stage["work"] is None
    assert api_server.api.post("/pipelines/life/start").status_code == 409
    assert api_server.api.post("/pipelines/life/cancel").status_code == 409
    assert api_server.api.get(f"/pipelines/{done['id']}").json()["name"] == "life"
    assert api_server.api.delete("/pipelines/life").status_code == 204
    assert api_server.api.get("/pipelines/life").status_code == 404


def test_a_false_condition_skips_its_stage_and_what_depends_on_it(api_server):
    definition = {
        "name": "conditions",
        "stages": [
            empty("a"),
            empty("never", "a", when="1 > 2"),
            empty("after_never", "never"),
            empty("always", "a", when="'x' == 'x'"),
        ],
    }
    create(api_server, definition=definition)
    done = wait_for_pipeline(api_server, "conditions", timeout=30)
    stages = stages_of(done)
    assert done["status"] == "completed", shown(done)
    assert {name: stage["status"] for name, stage in stages.items()} == {
        "a": "completed",
        "never": "skipped",
        "after_never": "skipped",
        "always": "completed",
    }
    assert "1 > 2" in stages["never"]["error"] and "never" in stages["after_never"]["error"]


def test_a_condition_that_cannot_be_decided_fails_its_stage(api_server):
    create(api_server, definition={"name": "undecided", "stages": [empty("a"), empty("b", "a", when="'x' > 1")]})
    done = wait_for_pipeline(api_server, "undecided", timeout=30)
    assert done["status"] == "failed" and stages_of(done)["b"]["status"] == "failed", shown(done)
    assert "compares numbers" in stages_of(done)["b"]["error"] and "b" in done["error"]


def register(name: str, path: Path, *depends_on: str, **fields) -> dict:
    params = {"name": f"{name}-model", "path": str(path)}
    return {"name": name, "type": "register", "depends_on": list(depends_on), "params": params, **fields}


def test_a_failing_stage_is_retried_then_fails_its_pipeline(api_server, tmp_path):
    definition = {"name": "retried", "stages": [empty("a"), register("keep", tmp_path / "missing", "a", retries=2)]}
    create(api_server, definition=definition)
    done = wait_for_pipeline(api_server, "retried", timeout=30)
    keep = stages_of(done)["keep"]
    assert done["status"] == "failed" and keep["status"] == "failed", shown(done)
    assert (keep["attempt"], keep["max_attempts"]) == (3, 3)
    assert "does not exist" in keep["error"] and "stage keep failed" in done["error"]
    assert api_server.api.get("/models/keep-model").status_code == 404
    unknown = api_server.api.post("/pipelines/retried/resume", json={"rerun": ["nowhere"]})
    assert unknown.status_code == 422 and unknown.json()["errors"][0]["field"] == "rerun"


def test_a_pipeline_waiting_to_retry_is_running_until_cancelled_then_resumes(api_server, tmp_path, demo_assets):
    model = tmp_path / "model"
    definition = {
        "name": "waiting",
        "stages": [
            empty("a"),
            register("keep", model, "a", retries=1, retry_delay_seconds=3600),
            empty("after", "keep"),
        ],
    }
    create(api_server, definition=definition)
    wait_for_stage(api_server, "waiting", "keep", lambda stage: stage["attempt"] == 1 and stage["status"] == "pending")
    assert pipeline(api_server, "waiting")["status"] == "running"
    # Running: neither edited nor deleted.
    assert api_server.api.put("/pipelines/waiting", json={"definition": definition}).status_code == 409
    assert api_server.api.delete("/pipelines/waiting").status_code == 409
    assert api_server.api.post("/pipelines/waiting/resume").status_code == 409

    cancelled = api_server.api.post("/pipelines/waiting/cancel")
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["status"] == "cancelled"
    assert {stage["name"]: stage["status"] for stage in cancelled.json()["stages"]} == {
        "a": "completed",
        "keep": "cancelled",
        "after": "cancelled",
    }
    # The model directory now exists (a link to the demo model, under the data roots): the resume registers it.
    model.symlink_to(demo_assets["model"], target_is_directory=True)
    assert api_server.api.post("/pipelines/waiting/resume", json={"rerun": []}).status_code == 200
    done = wait_for_pipeline(api_server, "waiting", timeout=30)
    stages = stages_of(done)
    assert done["status"] == "completed", shown(done)
    assert {name: stage["attempt"] for name, stage in stages.items()} == {"a": 1, "keep": 2, "after": 1}
    assert stages["keep"]["outputs"]["name"] == "keep-model"


def test_an_edit_is_checked_keeps_the_name_and_marks_only_changed_completed_stages(api_server):
    definition = {"name": "editable", "stages": [empty("a"), empty("b", "a")]}
    create(api_server, definition=definition)
    assert wait_for_pipeline(api_server, "editable", timeout=30)["status"] == "completed"

    renamed = api_server.api.put("/pipelines/editable", json={"definition": {**definition, "name": "other"}})
    assert renamed.status_code == 422 and renamed.json()["errors"][0]["field"] == "name"
    cyclic = {"name": "editable", "stages": [empty("a", "b"), empty("b", "a")]}
    broken = api_server.api.put("/pipelines/editable", json={"definition": cyclic})
    assert broken.status_code == 422 and broken.json()["errors"][0]["code"] == "cycle"
    assert pipeline(api_server, "editable")["definition"]["stages"][0]["depends_on"] == []

    grown = {"name": "editable", "stages": [empty("a"), empty("b", "a", when="1 == 1"), empty("c", "b")]}
    edited = api_server.api.put("/pipelines/editable", json={"definition": grown})
    assert edited.status_code == 200, edited.text
    stages = stages_of(edited.json())
    assert {name: stage["edited"] for name, stage in stages.items()} == {"a": False, "b": True, "c": False}
    assert stages["c"]["status"] == "pending" and edited.json()["layers"] == [["a"], ["b"], ["c"]]
    assert api_server.api.post("/pipelines/editable/resume").status_code == 200
    done = wait_for_pipeline(api_server, "editable", timeout=30)
    assert {stage["name"]: stage["attempt"] for stage in done["stages"]} == {"a": 1, "b": 1, "c": 1}
    assert done["status"] == "completed" and stages_of(done)["b"]["edited"] is True, shown(done)
