"""definition.py on its own: layers, cycles named by their stages, unknown dependencies, references checked against
the dependencies and the stage types' outputs, each stage's parameters checked by its API's own request model,
YAML read safely with its lines, and conditions and references resolved as data, never as code."""

import pytest

from training_platform.pipelines.definition import (
    MAX_YAML_BYTES,
    PipelineInvalid,
    Unresolved,
    check_document,
    check_text,
    default_name,
    holds,
    layered,
    references_in,
    resolve,
)
from training_platform.pipelines.schemas import StageSpec, StageType
from training_platform.pipelines.stages import STAGE_KINDS, has_output

TRAIN = {
    "algorithm": "sft",
    "model_path": "model:demo-tiny-qwen2",
    "dataset_paths": ["dataset:demo-sft"],
    "params": {"max_steps": 4},
}
EVALUATE = {
    "dataset": "demo-eval",
    "target": {"kind": "model", "model": "${sft.model}"},
    "metrics": [{"name": "exact_match"}],
}


def empty(name: str, *depends_on: str, **fields) -> dict:
    return {"name": name, "type": "empty", "depends_on": list(depends_on), **fields}


def document(*stages: dict, name: str = "p") -> dict:
    return {"name": name, "stages": list(stages)}


def problems(given: dict) -> list[dict]:
    with pytest.raises(PipelineInvalid) as refused:
        check_document(given)
    return [problem.item() for problem in refused.value.problems]


def text_problems(text: str) -> list[dict]:
    with pytest.raises(PipelineInvalid) as refused:
        check_text(text)
    return [problem.item() for problem in refused.value.problems]


# -- the graph


def test_layers_put_each_stage_one_after_its_deepest_dependency_in_the_definitions_order():
    checked = check_document(
        document(
            empty("prepare"),
            empty("right", "prepare"),
            empty("left", "prepare"),
            empty("late", "left"),
            empty("join", "right", "late"),
            empty("alone"),
        )
    )
    assert checked.layers == [["prepare", "alone"], ["right", "left"], ["late"], ["join"]]
    assert checked.layer_of == {"prepare": 0, "alone": 0, "right": 1, "left": 1, "late": 2, "join": 3}
    assert layered([StageSpec.model_validate(empty("only"))]) == [["only"]]


def test_a_cycle_is_one_problem_naming_its_stages_in_dependency_order():
    found = problems(document(empty("a", "c"), empty("b", "a"), empty("c", "b"), empty("free")))
    assert len(found) == 1, found
    cycle = found[0]
    assert cycle["code"] == "cycle" and sorted(cycle["stages"]) == ["a", "b", "c"]
    # The stage named is the list's first, and the field its dependencies.
    assert cycle["stage"] == cycle["stages"][0]
    assert cycle["field"] == f"stages.{'abc'.index(cycle['stage'])}.depends_on"
    # Each stage in the list depends on the one before it, and the first on the last.
    order = cycle["stages"]
    depends = {"a": "c", "b": "a", "c": "b"}
    assert all(depends[order[i]] == order[i - 1] for i in range(len(order))), order
    assert all(name in cycle["message"] for name in "abc") and "cycle" in cycle["message"]
    with pytest.raises(ValueError, match="cycle"):
        layered([StageSpec.model_validate(stage) for stage in (empty("a", "b"), empty("b", "a"))])


def test_two_cycles_and_a_stage_depending_on_itself_are_each_named():
    found = problems(document(empty("a", "b"), empty("b", "a"), empty("c", "d"), empty("d", "c"), empty("e", "e")))
    cycles = sorted(sorted(problem["stages"]) for problem in found if problem["code"] == "cycle")
    assert cycles == [["a", "b"], ["c", "d"], ["e"]], found


def test_unknown_and_duplicate_stages_are_named_with_their_fields():
    found = problems(document(empty("a"), empty("b", "a", "nowhere"), empty("a")))
    by_code = {problem["code"]: problem for problem in found}
    assert by_code["unknown_dependency"] == {
        "field": "stages.1.depends_on.1",
        "message": "stage 'b' depends on 'nowhere', which is not a stage of this pipeline",
        "code": "unknown_dependency",
        "stage": "b",
    }
    assert by_code["duplicate"]["stage"] == "a" and "named twice" in by_code["duplicate"]["message"]


def test_every_problem_is_reported_at_once():
    found = problems(
        document(
            empty("a", "b"),
            empty("b", "a"),
            empty("c", "ghost"),
            {"name": "train", "type": "train", "params": {**TRAIN, "algorithm": "nope"}},
            {"name": "BadName", "type": "empty"},
            {"name": "d", "type": "warp"},
        )
    )
    codes = sorted(problem["code"] for problem in found)
    assert codes == ["cycle", "enum", "enum", "string_pattern_mismatch", "unknown_dependency"], found
    assert {problem.get("stage") for problem in found} == {"b", "c", "train", "BadName", "d"}


def test_the_document_itself_is_checked():
    found = problems({"name": "../escape", "stages": [], "concurrency": 0, "extra": 1})
    fields = {problem["field"] for problem in found}
    assert {"name", "stages", "concurrency", "extra"} <= fields, found
    assert all("stage" not in problem for problem in found)


# -- references


def train(name: str = "sft", *depends_on: str, **params) -> dict:
    return {"name": name, "type": "train", "depends_on": list(depends_on), "params": {**TRAIN, **params}}


def test_references_to_a_dependency_and_to_an_earlier_stage_through_it_are_accepted():
    checked = check_document(
        document(
            train("sft"),
            train("dpo", "sft", algorithm="dpo", model_path="${sft.model}"),
            {"name": "eval_sft", "type": "evaluate", "depends_on": ["dpo"], "params": EVALUATE},
            {
                "name": "keep",
                "type": "register",
                "depends_on": ["eval_sft"],
                "when": "${eval_sft.metrics.exact_match} >= 0.5",
                "params": {"name": "kept", "path": "${sft.checkpoints.best}"},
            },
        )
    )
    assert checked.layers == [["sft"], ["dpo"], ["eval_sft"], ["keep"]]


@pytest.mark.parametrize(
    ("reference", "says"),
    [
        ("${other.model}", "'other' is not among the dependencies of 'dpo'"),  # a stage, but not a dependency
        ("${dpo.model}", "'dpo' is not among the dependencies of 'dpo'"),  # itself
        ("${ghost.model}", "names 'ghost', which is not a stage of this pipeline"),
        ("${sft.metrics.accuracy}", "a train stage has no output 'metrics.accuracy'"),
        ("${sft.weights}", "a train stage has no output 'weights'"),
        ("${sft}", "is not a reference"),
        ("${sft.model; rm -rf /}", "is not a reference"),
        ("${sft.model`id`}", "is not a reference"),
        ("${sft.$(id)}", "is not a reference"),
        ("${ sft.model }", "is not a reference"),
    ],
)
def test_a_dangling_reference_names_its_stage_and_field(reference, says):
    found = problems(document(train("sft"), train("other"), train("dpo", "sft", model_path=reference)))
    assert len(found) == 1, found
    assert found[0]["code"] == "reference" and found[0]["stage"] == "dpo"
    assert found[0]["field"] == "stages.2.params.model_path"
    assert says in found[0]["message"], found[0]["message"]


def test_outputs_follow_each_stage_types_table():
    assert has_output(StageType.EVALUATE, "metrics.exact_match")
    assert not has_output(StageType.EVALUATE, "metrics.")
    assert has_output(StageType.DATASET, "result.removed")
    assert has_output(StageType.TRAIN, "checkpoints.best") and not has_output(StageType.TRAIN, "checkpoints.x")
    assert not has_output(StageType.EMPTY, "anything")
    assert set(STAGE_KINDS) == set(StageType)


def test_references_are_found_anywhere_in_the_parameters():
    params = {"a": "${x.model}", "b": [1, {"c": "from ${y.job} and ${z.run}"}], "d": 3}
    assert list(references_in(params)) == [(("a",), "x.model"), (("b", 1, "c"), "y.job"), (("b", 1, "c"), "z.run")]


# -- parameters, as the stage's own API checks them


AUDIT = {"near_threshold": 2}  # POST /datasets/{dataset}/audit takes a threshold up to 1


def test_a_stages_parameters_are_refused_as_its_api_refuses_them():
    found = problems(
        document(
            train("sft", algorithm="nope"),
            {"name": "extra", "type": "train", "params": {**TRAIN, "learnin_rate": 1}},
            {"name": "started", "type": "train", "params": {**TRAIN, "start": True}},
            {"name": "ev", "type": "evaluate", "params": {"dataset": "demo-eval", "metrics": []}},
            {"name": "nothing", "type": "empty", "params": {"x": 1}},
            {"name": "data", "type": "dataset", "params": {"dataset": "d", "operation": "audit", "options": AUDIT}},
        )
    )
    fields = {problem["stage"]: problem["field"] for problem in found if problem["stage"] != "ev"}
    assert {problem["field"] for problem in found if problem["stage"] == "ev"} == {
        "stages.3.params.target",
        "stages.3.params.metrics",
    }
    assert fields["sft"] == "stages.0.params.algorithm"
    assert fields["extra"] == "stages.1.params.learnin_rate"
    assert fields["started"] == "stages.2.params.start"
    assert fields["nothing"] == "stages.4.params.x"
    assert fields["data"] == "stages.5.params.options.near_threshold"


def test_a_parameter_holding_a_reference_is_checked_when_it_resolves():
    # A number written as a reference cannot be checked now: it is checked at launch, once it resolves.
    check_document(document(train("sft"), train("dpo", "sft", params={"max_steps": "${sft.job}"})))


# -- conditions


@pytest.mark.parametrize(
    "condition",
    [
        "__import__('os').system('true')",
        "${sft.job}",
        "1 < 2 < 3",
        "${e.metrics.a} > 1 and 1 > 0",
        "${e.metrics.a} > 1 or True",
        "${e.metrics.a} + 1 > 2",
        "len('x') == 1",
        "${e.metrics.a} > ${e.metrics.b}; import os",
        "${e.metrics.a} is not None",
    ],
)
def test_a_condition_that_is_not_one_comparison_is_refused(condition):
    given = document(
        {"name": "e", "type": "evaluate", "params": {**EVALUATE, "target": {"kind": "model", "model": "/m"}}},
        empty("after", "e", when=condition),
    )
    found = [problem for problem in problems(given) if problem["code"] == "condition"]
    assert len(found) == 1 and found[0]["stage"] == "after" and found[0]["field"] == "stages.1.when", found
    with pytest.raises(Unresolved):
        holds(condition, {"e": {"metrics.a": 1, "metrics.b": 2}})


def test_a_condition_compares_the_recorded_outputs():
    outputs = {"e": {"metrics.a": 0.25, "metrics.b": 0.5, "name": "best", "ok": True}, "f": {"step": 3}}
    assert holds("${e.metrics.a} < ${e.metrics.b}", outputs) == (True, "0.25 < 0.5")
    assert holds("${e.metrics.a} >= 0.3", outputs)[0] is False
    assert holds("${f.step} == 3", outputs)[0] is True
    assert holds("${f.step} != 3", outputs)[0] is False
    assert holds("${e.name} == 'best'", outputs)[0] is True
    assert holds('${e.name} != "best"', outputs)[0] is False
    assert holds("${e.ok} == true", outputs)[0] is True
    assert holds("-1.5e1 < ${f.step}", outputs)[0] is True
    with pytest.raises(Unresolved, match="compares numbers"):
        holds("${e.name} > 1", outputs)
    with pytest.raises(Unresolved, match="compares numbers"):
        holds("${e.ok} > 0", outputs)
    with pytest.raises(Unresolved, match="recorded no output 'metrics.c'"):
        holds("${e.metrics.c} > 0", outputs)


def test_a_condition_or_a_reference_is_data_never_code(tmp_path):
    canary = tmp_path / "ran"
    code = f"__import__('os').system('touch {canary}')"
    with pytest.raises(Unresolved):
        holds(code, {})
    with pytest.raises(Unresolved):
        holds(f"{code} == 0", {})
    # An output that looks like code or like a reference is compared and passed on as the text it is.
    outputs = {"a": {"text": code, "ref": "${b.secret}"}, "b": {"secret": "s3cret"}}
    assert holds(f"${{a.text}} == '{code.replace(chr(39), '')}'", outputs)[0] is False
    assert resolve({"x": "${a.text}", "y": "${a.ref}", "z": "see ${a.ref}"}, outputs) == {
        "x": code,
        "y": "${b.secret}",
        "z": "see ${b.secret}",
    }
    assert not canary.exists()


def test_resolving_keeps_a_whole_references_type_and_writes_one_into_a_longer_string():
    outputs = {"sft": {"model": "job:p-sft", "step": 4, "score": 0.5, "names": ["a", "b"]}}
    params = {"model_path": "${sft.model}", "max_steps": "${sft.step}", "note": "step ${sft.step} of ${sft.model}"}
    assert resolve({**params, "list": ["${sft.names}", 1], "keep": 2}, outputs) == {
        "model_path": "job:p-sft",
        "max_steps": 4,
        "note": "step 4 of job:p-sft",
        "list": [["a", "b"], 1],
        "keep": 2,
    }
    with pytest.raises(Unresolved, match="recorded no output 'job'"):
        resolve({"x": "${sft.job}"}, outputs)
    with pytest.raises(Unresolved, match="not a reference"):
        resolve({"x": "${sft}"}, outputs)


def test_a_stages_default_work_name_carries_the_pipeline_the_stage_and_the_later_attempts():
    assert default_name("p", "eval_sft") == "p-eval-sft"
    assert default_name("p", "eval_sft", 2) == "p-eval-sft-2"


# -- YAML


YAML = """\
name: lines
stages:
  - name: a
    type: empty
    depends_on: [b]
  - name: b
    type: empty
    depends_on: [a]
  - name: c
    type: train
    depends_on: [nowhere]
    params:
      algorithm: nope
      model_path: ${a.weights}
      dataset_paths: [x.jsonl]
  - name: d
    type: empty
    when: __import__('os')
"""


def test_yaml_problems_carry_their_lines():
    found = {problem["code"]: problem for problem in text_problems(YAML)}
    # The cycle's line is the `depends_on` of the stage it names (the depth-first search closes it at b's).
    cycle = found["cycle"]
    assert sorted(cycle["stages"]) == ["a", "b"] and cycle["line"] == {"a": 5, "b": 8}[cycle["stage"]]
    assert found["unknown_dependency"]["line"] == 11 and found["unknown_dependency"]["stage"] == "c"
    assert found["enum"]["line"] == 13 and found["enum"]["field"] == "stages.2.params.algorithm"
    assert found["reference"]["line"] == 14 and found["reference"]["stage"] == "c"
    assert found["condition"]["line"] == 18 and found["condition"]["stage"] == "d"
    assert check_text("name: ok\nstages:\n  - {name: a, type: empty}\n").text.startswith("name: ok")


def test_anchors_and_aliases_are_refused_whatever_they_point_at():
    laughs = "name: boom\nx: &a [1, 1, 1]\ny: &b [*a, *a, *a]\nz: [*b, *b, *b]\nstages:\n  - {name: a, type: empty}\n"
    found = text_problems(laughs)
    assert found[0]["code"] == "yaml" and "anchors and aliases" in found[0]["message"], found
    small = "name: p\nstages:\n  - &s {name: a, type: empty}\n  - *s\n"
    assert "anchors and aliases" in text_problems(small)[0]["message"]


def test_yaml_that_names_code_or_is_not_a_pipeline_is_refused(tmp_path):
    canary = tmp_path / "ran"
    tagged = f'name: p\nstages: !!python/object/apply:os.system ["touch {canary}"]\n'
    found = text_problems(tagged)
    assert found[0]["code"] == "yaml" and found[0]["line"] == 2, found
    assert not canary.exists()
    assert text_problems("- a\n- b\n")[0]["message"].startswith("a pipeline is a mapping")
    broken = text_problems("name: p\nstages: [\n")
    assert broken[0]["code"] == "yaml" and broken[0]["line"] is not None
    assert text_problems("")[0]["code"] == "yaml"


def test_a_text_over_the_limit_is_refused_before_it_is_read():
    # Multi-byte characters: within the API's limit on characters, over the limit on bytes.
    text = "name: big\ndescription: " + "é" * (MAX_YAML_BYTES // 2 + 1) + "\nstages: []\n"
    found = text_problems(text)
    assert found == [{"field": "text", "message": f"the pipeline is over {MAX_YAML_BYTES} bytes", "code": "too_long"}]
