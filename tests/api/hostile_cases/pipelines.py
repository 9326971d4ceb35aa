"""Attacks through pipelines: YAML that names Python objects, expands itself through aliases or nests deeper than
a parser recurses, more stages than a pipeline holds, a condition that is code, references holding shell words or
naming the server's environment, a stage's path out of the roots, and members and viewers acting on another's
pipeline or as a worker. No definition is run: a refused one creates nothing, and no job, model or canary file is
made (the table's last test)."""

from collections.abc import Callable

from tests.support.hostile import (
    MAX_REQUEST_BYTES,
    Answer,
    Case,
    Hostile,
    all_of,
    fast,
    mentions,
    refused_naming,
)

ALICES_PIPELINE = "alices-pipeline"


def submit(text: Callable[[Hostile], str], path: str = "/pipelines") -> Callable[[Hostile], Answer]:
    """A member's YAML pipeline, sent to be created and started (or to `path`: /pipelines/validate)."""

    def send(h: Hostile) -> Answer:
        body = {"text": text(h), "start": True} if path == "/pipelines" else {"text": text(h)}
        return h.call("alice", "POST", path, json=body)

    return send


def submit_definition(definition: Callable[[Hostile], dict], who: str = "alice") -> Callable[[Hostile], Answer]:
    return lambda h: h.call(who, "POST", "/pipelines", json={"definition": definition(h), "start": True})


def alias_bomb(h: Hostile) -> str:
    """Nine levels of nine aliases each: 9**9 nodes once expanded, from a few hundred bytes."""
    lines = ["name: bomb", "l0: &l0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * 9)}]" for level in range(1, 9)]
    return "\n".join([*lines, "stages: [{name: s, type: empty}]"]) + "\n"


def deep_yaml(h: Hostile) -> str:
    return "name: deep\nx: " + "[" * 5000 + "]" * 5000 + "\nstages: [{name: s, type: empty}]\n"


def oversize(h: Hostile) -> str:
    return "name: big\ndescription: " + "x" * MAX_REQUEST_BYTES + "\nstages: [{name: s, type: empty}]\n"


def python_object(h: Hostile) -> str:
    canary = h.canary / "yaml"
    return f'name: tagged\nstages: !!python/object/apply:os.system ["touch {canary}"]\n'


def train_stage(name: str, model_path: str, *depends_on: str) -> dict:
    params = {"algorithm": "sft", "model_path": model_path, "dataset_paths": ["dataset:sft-data"]}
    return {"name": name, "type": "train", "depends_on": list(depends_on), "params": params}


def dpo_from(model_path: str) -> dict:
    """A second training stage after `sft`, from `model_path`."""
    return train_stage("dpo", model_path, "sft")


def with_second_stage(stage: Callable[[Hostile], dict]) -> Callable[[Hostile], dict]:
    """A real first stage (the demo model) and the stage under attack after it."""
    return lambda h: {"name": "attack", "stages": [train_stage("sft", str(h.demo["model"])), stage(h)]}


def stages(count: int) -> str:
    lines = ["name: many", "stages:", *(f"  - {{name: s{index}, type: empty}}" for index in range(count))]
    return "\n".join(lines) + "\n"


def no_pipeline(name: str) -> Callable[[Hostile, Answer], None]:
    def check(hostile: Hostile, _answer: Answer) -> None:
        assert hostile.server.api.get(f"/pipelines/{name}").status_code == 404

    return check


def alices_pipeline(h: Hostile) -> str:
    """Alice's draft of one empty stage (made once): what the others reach for."""
    if h.server.api.get(f"/pipelines/{ALICES_PIPELINE}").status_code == 404:
        definition = {"name": ALICES_PIPELINE, "stages": [{"name": "only", "type": "empty"}]}
        made = h.clients["alice"].post("/pipelines", json={"definition": definition})
        assert made.status_code == 201, made.text
    return f"/pipelines/{ALICES_PIPELINE}"


def on_alices(who: str, method: str, suffix: str = "", **kwargs) -> Callable[[Hostile], Answer]:
    return lambda h: h.call(who, method, alices_pipeline(h) + suffix, **kwargs)


def alices_still_a_draft(hostile: Hostile, _answer: Answer) -> None:
    found = hostile.server.api.get(f"/pipelines/{ALICES_PIPELINE}").json()
    assert found["status"] == "draft" and found["stages"][0]["attempt"] == 0, found


CLAIM = {"task_id": "stolen-task", "worker": "alice's laptop"}
EDIT = {"definition": {"name": ALICES_PIPELINE, "stages": [{"name": "only", "type": "empty", "when": "1 == 2"}]}}

CASES: list[Case] = [
    Case(
        "pipeline-yaml-python-object",
        submit(python_object),
        422,
        all_of(refused_naming("text"), no_pipeline("tagged")),
    ),
    Case(
        "pipeline-yaml-alias-bomb",
        submit(alias_bomb),
        422,
        all_of(refused_naming("text"), mentions("anchors and aliases"), fast(2.0), no_pipeline("bomb")),
    ),
    Case(
        "pipeline-yaml-nested-5000-deep",  # deeper than a recursive parser goes: refused, not a crash
        submit(deep_yaml),
        422,
        all_of(refused_naming("text"), no_pipeline("deep")),
    ),
    Case(
        "pipeline-1500-stages",  # three times what a pipeline holds, each checked before the count was
        submit(lambda h: stages(1500), path="/pipelines/validate"),
        422,
        all_of(refused_naming("stages"), mentions("500"), fast(2.0)),
    ),
    Case(
        "pipeline-over-max-request-bytes",
        submit(oversize),
        413,
        mentions("PLATFORM_MAX_REQUEST_BYTES"),
    ),
    Case(
        "pipeline-condition-as-code",
        submit_definition(
            with_second_stage(
                lambda h: {
                    "name": "after",
                    "type": "empty",
                    "depends_on": ["sft"],
                    "when": f"__import__('os').system('touch {h.canary / 'condition'}') == 0",
                }
            )
        ),
        422,
        all_of(refused_naming("stages.1.when"), no_pipeline("attack")),
    ),
    Case(
        "pipeline-reference-with-shell-words",
        submit_definition(with_second_stage(lambda h: dpo_from(f"${{sft.model;touch {h.canary}/ref}}"))),
        422,
        all_of(refused_naming("stages.1.params.model_path"), no_pipeline("attack")),
    ),
    Case(
        "pipeline-reference-with-substitution",
        submit_definition(with_second_stage(lambda h: dpo_from(f"$(touch {h.canary}/sub)${{sft.`id`}}"))),
        422,
        all_of(refused_naming("stages.1.params.model_path"), no_pipeline("attack")),
    ),
    Case(
        "pipeline-reference-to-the-environment",  # never resolved: the final test finds the secret in no answer
        submit_definition(with_second_stage(lambda h: dpo_from("${oc.env:SOME_SECRET}"))),
        422,
        all_of(refused_naming("stages.1.params.model_path"), no_pipeline("attack")),
    ),
    Case(
        "pipeline-stage-name-with-a-command",
        submit(lambda h: "name: named\nstages:\n  - {name: 'a;touch x', type: empty}\n"),
        422,
        all_of(refused_naming("stages.0.name"), no_pipeline("named")),
    ),
    Case(
        "pipeline-name-traversal",
        submit(lambda h: "name: ../../escape\nstages:\n  - {name: a, type: empty}\n"),
        422,
        refused_naming("name"),
    ),
    Case(
        "pipeline-train-model-outside-the-roots",  # POST /jobs refuses it: so does a pipeline, before it runs
        submit_definition(lambda h: {"name": "outside", "stages": [train_stage("sft", str(h.outside))]}),
        422,
        all_of(refused_naming("stages.0.params.model_path"), mentions("not under the platform's data roots")),
    ),
    Case(
        "pipeline-created-by-a-viewer",
        submit_definition(lambda h: {"name": "viewers", "stages": [{"name": "a", "type": "empty"}]}, who="val"),
        403,
        all_of(mentions("viewer"), no_pipeline("viewers")),
    ),
    Case(
        "pipeline-stage-claimed-by-a-member",
        on_alices("alice", "POST", "/stages/only/claim", json=CLAIM),
        403,
        alices_still_a_draft,
    ),
    Case(
        "pipeline-stage-settled-by-a-member",
        on_alices("bob", "POST", "/stages/only/settle", json=CLAIM),
        403,
        alices_still_a_draft,
    ),
    Case(
        "pipeline-started-by-another-member",
        on_alices("bob", "POST", "/start"),
        403,
        all_of(mentions("belongs to alice"), alices_still_a_draft),
    ),
    Case("pipeline-edited-by-another-member", on_alices("bob", "PUT", json=EDIT), 403, alices_still_a_draft),
    Case("pipeline-deleted-by-another-member", on_alices("bob", "DELETE"), 403, alices_still_a_draft),
    Case("pipeline-cancelled-by-a-viewer", on_alices("val", "POST", "/cancel"), 403, alices_still_a_draft),
]
