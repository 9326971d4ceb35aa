"""What an evaluation run is made of, without a server: its parameters (refused naming the option), its sample file
(appended whole, a torn last line dropped), its samples (choices shown to the model), its aggregates and the
comparison of two runs sample by sample."""

import json

import pytest
from pydantic import ValidationError

from training_platform.contract.evaluation import EvalParams, EvalResults, MetricSpec, SampleRecord
from training_platform.evals.comparison import compare_runs
from training_platform.evals.schemas import CompareRequest
from training_platform.evaluation.aggregate import aggregate
from training_platform.evaluation.metrics import build_scorers
from training_platform.evaluation.process import SampleFile
from training_platform.evaluation.samples import eval_samples

MODEL_TARGET = {"kind": "model", "model": {"path": "/models/demo"}}


def params(**extra) -> EvalParams:
    return EvalParams.model_validate({"target": MODEL_TARGET, "metrics": [{"name": "exact_match"}], **extra})


@pytest.mark.parametrize(
    ("metric", "words"),
    [
        ({"name": "bleu", "k": [2]}, "k: bleu takes tokenize"),
        ({"name": "chrf", "rubric": "be fair"}, "rubric: chrf takes no options"),
        ({"name": "judge", "rubric": "be fair"}, "target: needed"),
        ({"name": "custom"}, "function: a custom metric names"),
        ({"name": "pass_at_k", "k": [1, 1]}, "k: each value once"),
    ],
)
def test_a_metric_refuses_what_it_does_not_take_naming_the_option(metric, words):
    with pytest.raises(ValidationError, match=words):
        MetricSpec.model_validate(metric)


def test_a_stored_run_reads_back_whatever_it_wrote():
    run = params(metrics=[{"name": "judge", "rubric": "fair", "target": MODEL_TARGET}, {"name": "bleu"}])
    assert EvalParams.model_validate_json(run.model_dump_json()) == run


def test_pass_at_k_needs_as_many_answers_and_secrets_are_named_once():
    with pytest.raises(ValidationError, match="metrics.0.k: pass@5 needs generation.n of at least that"):
        params(metrics=[{"name": "pass_at_k", "k": [1, 5]}], generation={"n": 2})
    endpoint = {"kind": "api", "base_url": "http://127.0.0.1:1/v1", "model": "m", "api_key_secret": "key"}
    judged = params(target=endpoint, metrics=[{"name": "judge", "rubric": "r", "target": endpoint}])
    assert judged.secrets == ["key"]


def record(index: int, output: str, value: float, category: str = "a") -> SampleRecord:
    return SampleRecord(
        index=index,
        category=category,
        prompt=f"q{index}",
        references=["yes"],
        outputs=[output],
        values={"exact_match": value},
    )


def test_the_sample_file_drops_a_torn_last_line_and_reads_each_sample_once(tmp_path):
    path = tmp_path / "samples.jsonl"
    file = SampleFile(path)
    file.append([record(0, "yes", 1.0), record(1, "no", 0.0)])
    with open(path, "a") as handle:
        handle.write(record(2, "yes", 1.0).model_dump_json()[:25])  # a crash in the middle of a line
    reopened = SampleFile(path)
    assert reopened.done == {0, 1}
    assert path.read_text().endswith("\n") and len(path.read_text().splitlines()) == 2
    reopened.append([record(2, "yes", 1.0)])
    assert [r.index for r in SampleFile(path).read()] == [0, 1, 2]


def test_a_multiple_choice_question_shows_its_lettered_choices():
    rows = [
        {"prompt": "Sky colour?", "choices": ["red", "blue"], "reference": "B"},
        {"messages": [{"role": "user", "content": "Grass?"}], "choices": ["green", "pink"], "reference": 0},
    ]
    text, chat = eval_samples(rows, None)
    assert text.prompt == "Sky colour?\nA. red\nB. blue\nAnswer:"
    assert chat.prompt[-1]["content"] == "Grass?\nA. green\nB. pink\nAnswer:" and chat.references == ["A"]
    assert [sample.index for sample in eval_samples(rows, 1)] == [0]


def results_of(records: list[SampleRecord], run: EvalParams) -> EvalResults:
    samples = eval_samples(
        [{"prompt": r.prompt, "reference": r.references, "category": r.category} for r in records], None
    )
    return aggregate(samples, records, build_scorers(run.metrics), run, seconds=1.0)


def test_aggregates_per_category_hold_their_value_inside_the_interval():
    run = params(bootstrap_resamples=200)
    records = [record(i, "yes" if i % 3 else "no", 1.0 if i % 3 else 0.0, "a" if i < 6 else "b") for i in range(12)]
    results = results_of(records, run)
    overall = results.overall["exact_match"]
    assert overall.value == pytest.approx(8 / 12) and overall.low <= overall.value <= overall.high
    assert results.category_sizes == {"a": 6, "b": 6}
    assert results.categories["a"]["exact_match"].value == pytest.approx(4 / 6)


def test_a_comparison_pairs_samples_counts_directions_and_filters():
    run = params(bootstrap_resamples=200, dataset_sha256="d" * 64)
    before = [record(i, "no", 0.0, "a" if i % 2 else "b") for i in range(20)]
    after = [record(i, "yes" if i < 15 else "no", 1.0 if i < 15 else 0.0, "a" if i % 2 else "b") for i in range(20)]
    after[19] = record(19, "no", 0.0, "a")
    before[19] = record(19, "yes", 1.0, "a")  # the one sample that got worse
    compared = compare_runs(
        names=["before", "after"],
        baseline="before",
        params=[run, run],
        results=[results_of(before, run), results_of(after, run)],
        records=[before, after],
        request=CompareRequest(runs=["before", "after"], direction="regressed"),
    )
    assert compared.counts["after"] == {"improved": 15, "regressed": 1, "unchanged": 4}
    difference = compared.metrics[0].differences["after"]
    assert difference.value == pytest.approx(14 / 20) and difference.low > 0
    assert [sample.index for sample in compared.samples] == [19] and compared.total == 1
    assert compared.samples[0].outputs == {"before": ["yes"], "after": ["no"]}
    searched = CompareRequest(runs=["before", "after"], search="Q7")
    found = compare_runs(
        ["before", "after"], "before", [run, run], [results_of(before, run)] * 2, [before, after], searched
    )
    assert [sample.index for sample in found.samples] == [7]
    assert json.loads(found.model_dump_json())["baseline"] == "before"
