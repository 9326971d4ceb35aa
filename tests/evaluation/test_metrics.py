"""The scorers against the libraries that define the metrics, called directly on the same inputs."""

import itertools
import math
import random
import time

import pytest
import sacrebleu
from math_verify import parse, verify
from rouge_score import rouge_scorer

from training_platform.contract.evaluation import METRICS, ApiTarget, MetricSpec
from training_platform.evaluation.metrics import (
    SCORERS,
    Sample,
    build_scorers,
    interval,
    normalize_answer,
    paired_difference,
    parse_verdict,
    pass_at_k,
    tokenizer_for,
)

ENGLISH = [
    ("The cat sat on the mat.", ["The cat is sitting on the mat.", "A cat sat on a mat."]),
    ("It rained all day long.", ["It was raining the whole day."]),
    ("He reads books every night.", ["He reads a book each night.", "Every night he reads books."]),
]
CHINESE = [("今天天气很好。", ["今天的天气非常好。"]), ("我喜欢读书。", ["我很喜欢看书。"])]


def samples_of(rows) -> tuple[list[Sample], list[list[str]]]:
    return [Sample(i, "q", refs) for i, (_, refs) in enumerate(rows)], [[answer] for answer, _ in rows]


def scored(name: str, rows, **options):
    (scorer,) = build_scorers([MetricSpec(name=name, **options)])
    samples, outputs = samples_of(rows)
    values = [scorer.score(s, o).values for s, o in zip(samples, outputs, strict=True)]
    return scorer, samples, outputs, values


def test_every_metric_of_the_contract_has_a_scorer():
    assert set(SCORERS.names()) == set(METRICS)


@pytest.mark.parametrize(("rows", "tokenize"), [(ENGLISH, "13a"), (CHINESE, "zh")])
def test_bleu_and_chrf_are_sacrebleus_corpus_scores(rows, tokenize):
    hypotheses = [answer for answer, _ in rows]
    width = max(len(refs) for _, refs in rows)
    streams = [[refs[j] if j < len(refs) else None for _, refs in rows] for j in range(width)]
    assert tokenizer_for([r for _, refs in rows for r in refs], "auto") == tokenize
    bleu, samples, outputs, values = scored("bleu", rows)
    expected = sacrebleu.corpus_bleu(hypotheses, streams, tokenize=tokenize).score
    assert bleu.aggregate("bleu", samples, outputs, [v["bleu"] for v in values]) == pytest.approx(expected)
    first = sacrebleu.sentence_bleu(hypotheses[0], rows[0][1], tokenize=tokenize).score
    assert values[0]["bleu"] == pytest.approx(first)
    chrf, samples, outputs, values = scored("chrf", rows)
    expected = sacrebleu.corpus_chrf(hypotheses, streams).score
    assert chrf.aggregate("chrf", samples, outputs, [v["chrf"] for v in values]) == pytest.approx(expected)
    assert values[0]["chrf"] == pytest.approx(sacrebleu.sentence_chrf(hypotheses[0], rows[0][1]).score)


def test_rouge_is_rouge_scores_best_f_measure():
    _, _, _, values = scored("rouge", ENGLISH)
    library = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True)
    for (answer, refs), value in zip(ENGLISH, values, strict=True):
        for key in ("rouge1", "rouge2", "rougeL"):
            assert value[key] == pytest.approx(max(library.score(r, answer)[key].fmeasure for r in refs))


class OneCharacterPerToken:
    def tokenize(self, text: str) -> list[str]:
        return [c for c in text if not c.isspace() and c not in "。，"]


def test_rouge_scores_chinese_by_character_where_the_default_tokenizer_gives_zero():
    answer, (reference,) = CHINESE[0]
    assert rouge_scorer.RougeScorer(["rouge1"]).score(reference, answer)["rouge1"].fmeasure == 0
    _, _, _, values = scored("rouge", CHINESE[:1])
    expected = rouge_scorer.RougeScorer(["rouge1", "rougeL"], tokenizer=OneCharacterPerToken()).score(reference, answer)
    assert values[0]["rouge1"] == pytest.approx(expected["rouge1"].fmeasure) and values[0]["rouge1"] > 0.5
    assert values[0]["rougeL"] == pytest.approx(expected["rougeL"].fmeasure)


@pytest.mark.parametrize(
    ("answer", "reference"),
    [("so \\boxed{\\frac{1}{2}}", "0.5"), ("The answer is 42.", "42"), ("\\boxed{x+1}", "1+x"), ("\\boxed{3}", "4")],
)
def test_math_agrees_with_math_verify(answer, reference):
    boxed = answer.split("boxed{", 1)[1].rsplit("}", 1)[0] if "boxed" in answer else "42"
    expected = 1.0 if verify(parse(f"${reference}$"), parse(f"${boxed}$")) else 0.0
    _, _, _, values = scored("math", [(answer, [reference])])
    assert values[0]["math"] == expected


@pytest.mark.parametrize(
    ("answer", "reference", "normalize", "expected"),
    [
        ("The Eiffel Tower!", "eiffel tower", True, 1.0),
        ("  Paris  ", "Paris", False, 1.0),
        ("paris", "Paris", False, 0.0),
        ("北京。", "北京", True, 1.0),
        ("an   apple, please", "apple please", True, 1.0),
        ("Rome", "Paris", True, 0.0),
    ],
)
def test_exact_match_normalisation(answer, reference, normalize, expected):
    options = {} if normalize else {"normalize": False}
    _, _, _, values = scored("exact_match", [(answer, ["other", reference])], **options)
    assert values[0]["exact_match"] == expected


def test_normalize_answer_is_squads():
    assert normalize_answer("The  quick, brown fox！") == "quick brown fox"


@pytest.mark.parametrize(
    ("answer", "reference", "expected"),
    [("B", "B", 1.0), ("(B) because", "1", 1.0), ("Answer: C", "C", 1.0), ("I think it is Blue.", "Blue", 1.0),
     ("The answer is A", "Blue", 0.0), ("Green, surely", "C", 1.0), ("no idea", "A", 0.0)],
)  # fmt: skip
def test_accuracy_reads_letters_and_choice_texts(answer, reference, expected):
    (scorer,) = build_scorers([MetricSpec(name="accuracy")])
    sample = Sample(0, "Which colour?", [reference], choices=["Red", "Blue", "Green"])
    assert scorer.score(sample, [answer]).values["accuracy"] == expected


@pytest.mark.parametrize(("n", "c", "k"), [(10, 3, 1), (10, 3, 5), (20, 0, 4), (200, 17, 10), (5, 2, 4), (64, 63, 2)])
def test_pass_at_k_is_the_humaneval_estimator(n, c, k):
    assert pass_at_k(n, c, k) == pytest.approx(1 - math.comb(n - c, k) / math.comb(n, k))


@pytest.mark.parametrize(
    ("n", "c", "k"), [(n, c, k) for n in range(1, 7) for c in range(n + 1) for k in range(1, n + 1)]
)
def test_pass_at_k_is_the_share_of_k_subsets_holding_a_pass(n, c, k):
    outcomes = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(outcomes, k))
    assert pass_at_k(n, c, k) == pytest.approx(sum(any(s) for s in subsets) / len(subsets))


def verdicts(prompts: list[str]) -> list[str]:
    """The judge the caller injects: here a model that always answers these texts in turn."""
    fixed = ["Good.\nScore: 8", "Score: 3 at first... then Score: 10", "I cannot tell."]
    return [fixed[i % len(fixed)] for i in range(len(prompts))]


def test_judge_keeps_prompt_model_and_verdict_and_parses_the_last_score():
    spec = MetricSpec(name="judge", rubric="Be fair.", target=ApiTarget(base_url="http://h/v1", model="judge-m"))
    (scorer,) = build_scorers([spec], judge=lambda _spec: verdicts)
    result = scorer.score(Sample(0, "What is 2+2?", ["4"]), ["4", "four", "5"])
    assert result.values["judge"] == pytest.approx(((8 - 1) / 9 + 1.0) / 2)
    details = result.details["judge"]
    assert details["model"] == "judge-m" and details["verdict"][2] == "I cannot tell."
    assert (
        "Be fair." in details["prompt"][0]
        and "What is 2+2?" in details["prompt"][0]
        and "Score: N" in details["prompt"][0]
    )
    assert parse_verdict("Score: 11", 10) is None and parse_verdict("score: 1", 10) == 0.0


def exact_rows(count: int, seed: int) -> list[tuple[str, list[str]]]:
    generator = random.Random(seed)
    return [("yes" if generator.random() < 0.6 else "no", ["yes"]) for _ in range(count)]


@pytest.mark.parametrize("name", ["exact_match", "bleu"])
def test_bootstrap_interval_holds_the_estimate_and_narrows_with_more_samples(name):
    widths = []
    for count in (40, 400):
        rows = exact_rows(count, 1) if name == "exact_match" else (ENGLISH * count)[:count]
        scorer, samples, outputs, values = scored(name, rows)
        key = scorer.keys[0]
        column = [v[key] for v in values]
        point = scorer.aggregate(key, samples, outputs, column)
        low, high = interval(scorer, key, samples, outputs, column, 1000, 0.95, 0)
        assert low <= point <= high
        widths.append(high - low)
    assert widths[1] < widths[0]


def test_paired_difference_has_the_sign_of_the_better_run():
    rows = exact_rows(100, 2)
    scorer, samples, outputs_a, values_a = scored("exact_match", rows)
    outputs_b = [["yes"] if i % 3 else o for i, o in enumerate(outputs_a)]
    values_b = [scorer.score(s, o).values for s, o in zip(samples, outputs_b, strict=True)]
    difference, low, high = paired_difference(
        scorer, "exact_match", samples, outputs_a, [v["exact_match"] for v in values_a],
        outputs_b, [v["exact_match"] for v in values_b], 1000, 0.95, 0,
    )  # fmt: skip
    assert 0 < low <= difference <= high


def test_custom_metric_loads_from_the_reward_code_directory_as_rewards_do(tmp_path):
    (tmp_path / "lengths.py").write_text(
        "def ratio(completion, reference, row):\n    return len(completion) / row['n']\n"
    )
    (scorer,) = build_scorers([MetricSpec(name="custom", function="lengths.py:ratio")], reward_code_dir=tmp_path)
    assert scorer.score(Sample(0, "q", [], row={"n": 4}), ["ab", "abcd"]).values["custom"] == 0.75


def test_a_corpus_bleu_interval_of_200_samples_takes_under_two_seconds():
    scorer, samples, outputs, values = scored("bleu", (ENGLISH * 70)[:200])
    started = time.perf_counter()
    assert interval(scorer, "bleu", samples, outputs, [v["bleu"] for v in values], 1000, 0.95, 0) is not None
    assert time.perf_counter() - started < 2
