"""The scorers of an evaluation run, registered by the names of contract.evaluation.METRICS (docs/evaluation.md).

Each scorer gives every sample its values (the mean over the sample's answers when there are several, except
pass@k, which is computed over them) and aggregates the samples: corpus BLEU and chrF through sacrebleu over each
sample's first answer, the mean of the values that could be scored otherwise. Confidence intervals and paired
differences are percentile bootstraps over samples; BLEU and chrF are recomputed from the samples' sufficient
statistics, so a resample costs a sum, not a re-tokenisation.

Where a library defines a metric, the library computes it: sacrebleu, rouge-score, math-verify (through the rewards'
extraction and comparison, as GRPO rewards use them). Custom functions load from the reward code directory exactly as
custom rewards do. Price: sacrebleu, rouge-score and math-verify are imported when a scorer first needs them, so
importing this module stays cheap.
"""

import re
import string
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from training_platform.common.registry import Registry
from training_platform.contract.evaluation import ApiTarget, MetricSpec
from training_platform.evaluation.sandbox import run_python, sandbox_available
from training_platform.rewards import answers_match, as_reward, extract_answer, load_custom_function


@dataclass(frozen=True)
class Sample:
    """One eval row, in the platform's shape."""

    index: int
    prompt: str | list[dict]  # text, or chat messages [{"role", "content"}]
    references: list[str]  # may be empty
    category: str | None = None
    tests: str | None = None  # Python test code for pass@k: asserts, which may call what the answer defines
    choices: list[str] | None = None  # multiple choice options
    row: dict = field(default_factory=dict)  # the whole row (custom metrics get it)


@dataclass
class SampleScore:
    values: dict[str, float | None]  # metric key -> value; None: it could not be scored
    details: dict[str, Any]  # per metric name, what to keep with the sample


class Scorer(Protocol):
    spec: MetricSpec
    keys: tuple[str, ...]

    def score(self, sample: Sample, outputs: list[str]) -> SampleScore: ...

    def score_batch(self, samples: list[Sample], outputs: list[list[str]]) -> list[SampleScore]: ...

    def aggregate(
        self, key: str, samples: list[Sample], outputs: list[list[str]], values: list[float | None]
    ) -> float | None: ...

    def resampler(
        self, key: str, samples: list[Sample], outputs: list[list[str]], values: list[float | None]
    ) -> Callable[[np.ndarray], float | None]: ...


JudgeFunction = Callable[[list[str]], list[str]]  # prompts -> verdict texts, one each
ScorerFactory = Callable[[MetricSpec, Callable[[MetricSpec], JudgeFunction] | None, Path | None], Scorer]

SCORERS: Registry[ScorerFactory] = Registry("metric")


class MetricError(ValueError):
    """A metric that cannot be computed as asked (no sandbox, no judge, a custom function's bad value)."""


def build_scorers(
    specs: list[MetricSpec],
    judge: Callable[[MetricSpec], JudgeFunction] | None = None,
    reward_code_dir: Path | None = None,
) -> list[Scorer]:
    return [SCORERS[spec.name](spec, judge, reward_code_dir) for spec in specs]


def interval(
    scorer: Scorer,
    key: str,
    samples: list[Sample],
    outputs: list[list[str]],
    values: list[float | None],
    resamples: int,
    confidence: float,
    seed: int,
) -> tuple[float, float] | None:
    """Percentile bootstrap interval of the aggregate, resampling samples with replacement."""
    statistic = scorer.resampler(key, samples, outputs, values)
    if not samples or statistic(np.arange(len(samples))) is None:
        return None
    indices = np.random.default_rng(seed).integers(0, len(samples), size=(resamples, len(samples)))
    estimates = [value for row in indices if (value := statistic(row)) is not None]
    return _percentiles(estimates, confidence)


def paired_difference(
    scorer: Scorer,
    key: str,
    samples: list[Sample],
    outputs_a: list[list[str]],
    values_a: list[float | None],
    outputs_b: list[list[str]],
    values_b: list[float | None],
    resamples: int,
    confidence: float,
    seed: int,
) -> tuple[float, float, float] | None:
    """(aggregate of b - aggregate of a, low, high): both resampled with the same indices, so the interval is the
    paired one (the samples' own difficulty cancels out)."""
    statistic_a = scorer.resampler(key, samples, outputs_a, values_a)
    statistic_b = scorer.resampler(key, samples, outputs_b, values_b)
    everything = np.arange(len(samples))
    if not samples or (a := statistic_a(everything)) is None or (b := statistic_b(everything)) is None:
        return None
    indices = np.random.default_rng(seed).integers(0, len(samples), size=(resamples, len(samples)))
    differences = []
    for row in indices:
        low, high = statistic_a(row), statistic_b(row)
        if low is not None and high is not None:
            differences.append(high - low)
    bounds = _percentiles(differences, confidence)
    return None if bounds is None else (b - a, *bounds)


def _percentiles(estimates: list[float], confidence: float) -> tuple[float, float] | None:
    if not estimates:
        return None
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(np.asarray(estimates, dtype=float), [tail, 100 - tail])
    return float(low), float(high)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Chen et al. 2021's unbiased estimator of pass@k from n answers of which c pass: 1 - C(n-c, k) / C(n, k),
    as a product so large n does not overflow."""
    if n - c < k:
        return 1.0
    return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002fa1f]")


def tokenizer_for(references: list[str], tokenize: str) -> str:
    """sacrebleu's tokenizer: `auto` is 'zh' when a reference has CJK characters, else sacrebleu's default 13a."""
    if tokenize != "auto":
        return tokenize
    return "zh" if any(_CJK.search(reference) for reference in references) else "13a"


class MeanOfSamples:
    """A metric whose aggregate is the mean of its samples' values: a sample's values come from its subclass
    (`score`), or were scored already (a comparison reads a judge's or a custom metric's, evals/comparison.py)."""

    def __init__(self, spec: MetricSpec, _judge: Any = None, _code_dir: Path | None = None):
        self.spec = spec
        self.keys = spec.keys

    def score_batch(self, samples: list[Sample], outputs: list[list[str]]) -> list[SampleScore]:
        """A batch's samples, each with its answers: one by one, unless a metric gains from seeing them together."""
        return [self.score(sample, answers) for sample, answers in zip(samples, outputs, strict=True)]

    def aggregate(
        self, key: str, samples: list[Sample], outputs: list[list[str]], values: list[float | None]
    ) -> float | None:
        return _mean(values)

    def resampler(
        self, key: str, samples: list[Sample], outputs: list[list[str]], values: list[float | None]
    ) -> Callable[[np.ndarray], float | None]:
        scored = np.array([value is not None for value in values], dtype=float)
        numbers = np.array([0.0 if value is None else value for value in values], dtype=float)

        def mean(indices: np.ndarray) -> float | None:
            count = scored[indices].sum()
            return float(numbers[indices].sum() / count) if count else None

        return mean


class MeanScorer(MeanOfSamples, ABC):
    """Each answer gets a value per key, a sample the mean of its answers', the corpus the mean of its samples'."""

    def score(self, sample: Sample, outputs: list[str]) -> SampleScore:
        per_output = [self.score_output(sample, output) for output in outputs]
        values = {key: _mean([value[key] for value in per_output]) for key in self.keys}
        return SampleScore(values, {})

    @abstractmethod
    def score_output(self, sample: Sample, output: str) -> dict[str, float | None]:
        """One answer's value for each of the metric's keys."""


def _mean(values: Sequence[float | None]) -> float | None:
    present = [value for value in values if value is not None]
    return sum(present) / len(present) if present else None


# SQuAD's normalisation, with Unicode punctuation (CJK included) as punctuation.
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def normalize_answer(text: str) -> str:
    """Lower case, no punctuation, no English articles, single spaces (SQuAD's evaluation script)."""
    text = text.lower()
    text = "".join(c for c in text if c not in string.punctuation and not unicodedata.category(c).startswith("P"))
    return " ".join(_ARTICLES.sub(" ", text).split())


@SCORERS.register("exact_match")
class ExactMatch(MeanScorer):
    def score_output(self, sample: Sample, output: str) -> dict[str, float | None]:
        if not sample.references:
            return {"exact_match": None}
        prepare = normalize_answer if self.spec.normalize else str.strip
        matched = any(prepare(output) == prepare(reference) for reference in sample.references)
        return {"exact_match": 1.0 if matched else 0.0}


class _SacrebleuScorer(MeanScorer):
    """A sentence score per answer for the sample table; the aggregate is the corpus score."""

    @abstractmethod
    def metric(self, references: list[list[str]], sentence: bool = False):
        """sacrebleu's metric object; for one sentence, with the settings of its sentence_bleu/sentence_chrf."""

    def score_output(self, sample: Sample, output: str) -> dict[str, float | None]:
        if not sample.references:
            return {self.keys[0]: None}
        return {
            self.keys[0]: self.metric([sample.references], sentence=True)
            .sentence_score(output, sample.references)
            .score
        }

    def _corpus(self, samples: list[Sample], outputs: list[list[str]]):
        """The metric, and the first answers and the reference streams of the samples that have references,
        padded with None where a sample has fewer references than another (sacrebleu's multi-reference form)."""
        kept = [(sample.references, answers[0]) for sample, answers in zip(samples, outputs, strict=True)]
        kept = [(references, answer) for references, answer in kept if references]
        width = max((len(references) for references, _ in kept), default=0)
        streams = [[references[j] if j < len(references) else None for references, _ in kept] for j in range(width)]
        return self.metric([references for references, _ in kept]), [answer for _, answer in kept], streams

    def aggregate(
        self, key: str, samples: list[Sample], outputs: list[list[str]], values: list[float | None]
    ) -> float | None:
        metric, hypotheses, streams = self._corpus(samples, outputs)
        return metric.corpus_score(hypotheses, streams).score if hypotheses else None

    def resampler(
        self, key: str, samples: list[Sample], outputs: list[list[str]], values: list[float | None]
    ) -> Callable[[np.ndarray], float | None]:
        metric, hypotheses, streams = self._corpus(samples, outputs)
        # Per-sample sufficient statistics (n-gram matches and totals, lengths), as sacrebleu's own bootstrap uses.
        statistics = (
            np.array(metric._extract_corpus_statistics(hypotheses, streams), dtype=float) if hypotheses else None
        )
        has_references = np.array([bool(sample.references) for sample in samples])
        position = np.cumsum(has_references) - 1

        def corpus(indices: np.ndarray) -> float | None:
            chosen = position[indices[has_references[indices]]]
            if statistics is None or not len(chosen):
                return None
            return float(metric._compute_score_from_stats(statistics[chosen].sum(axis=0).tolist()).score)

        return corpus


@SCORERS.register("bleu")
class Bleu(_SacrebleuScorer):
    def metric(self, references: list[list[str]], sentence: bool = False):
        from sacrebleu.metrics import BLEU

        tokenize = tokenizer_for([r for group in references for r in group], self.spec.tokenize)
        return BLEU(tokenize=tokenize, effective_order=sentence)


@SCORERS.register("chrf")
class Chrf(_SacrebleuScorer):
    @cached_property
    def _chrf(self):
        from sacrebleu.metrics import CHRF

        return CHRF()

    def metric(self, references: list[list[str]], sentence: bool = False):
        return self._chrf


class CharacterTokenizer:
    """For rouge-score on CJK text: each CJK character a token, latin words and numbers lower-cased whole.

    rouge-score's default tokenizer keeps only [a-z0-9] and would score any Chinese answer 0.
    """

    _TOKEN = re.compile(rf"{_CJK.pattern}|[^\W_]+")

    def tokenize(self, text: str) -> list[str]:
        return self._TOKEN.findall(text.lower())


@SCORERS.register("rouge")
class Rouge(MeanScorer):
    @cached_property
    def _scorers(self):
        from rouge_score import rouge_scorer

        types = list(self.keys)
        return (
            rouge_scorer.RougeScorer(types, use_stemmer=True),
            rouge_scorer.RougeScorer(types, use_stemmer=True, tokenizer=CharacterTokenizer()),
        )

    def score_output(self, sample: Sample, output: str) -> dict[str, float | None]:
        if not sample.references:
            return dict.fromkeys(self.keys)
        words, characters = self._scorers
        by_character = self.spec.tokenize in ("zh", "char") or (
            self.spec.tokenize == "auto" and any(_CJK.search(text) for text in [output, *sample.references])
        )
        scorer = characters if by_character else words
        scores = [scorer.score(reference, output) for reference in sample.references]
        return {key: max(score[key].fmeasure for score in scores) for key in self.keys}


@SCORERS.register("math")
class Math(MeanScorer):
    def score_output(self, sample: Sample, output: str) -> dict[str, float | None]:
        if not sample.references:
            return {"math": None}
        answer = extract_answer(output, "boxed") or extract_answer(output, "last_number")
        return {"math": max(answers_match(answer, reference, "numeric") for reference in sample.references)}


_ANSWER_LETTER = re.compile(r"answer\s*(?:is|:|：)?\s*[:：]?\s*\(?\b([A-Z])\b\)?", re.IGNORECASE)
_STANDALONE_LETTER = re.compile(r"(?<![A-Za-z])\(?([A-Z])\)?(?![A-Za-z])")


def picked_choice(answer: str, choices: list[str]) -> int | None:
    """The index of the choice an answer picks: by its letter ("B", "(B)", "Answer: C"), else by containing
    exactly the text of a choice (the longest one it contains)."""
    letters = string.ascii_uppercase[: len(choices)]
    stated = _ANSWER_LETTER.search(answer)
    if stated and stated.group(1).upper() in letters:
        return letters.index(stated.group(1).upper())
    for match in _STANDALONE_LETTER.finditer(answer):
        if match.group(1) in letters:
            return letters.index(match.group(1))
    folded = answer.casefold()
    contained = [i for i, choice in enumerate(choices) if choice.strip() and choice.strip().casefold() in folded]
    return max(contained, key=lambda i: len(choices[i].strip())) if contained else None


def reference_choice(reference: Any, choices: list[str]) -> int | None:
    """A reference as a choice index: a letter, a 0-based index, or the choice's text."""
    text = str(reference).strip().strip("()").strip()
    letters = string.ascii_uppercase[: len(choices)]
    if len(text) == 1 and text.upper() in letters:
        return letters.index(text.upper())
    if text.isdigit() and int(text) < len(choices):
        return int(text)
    matches = [i for i, choice in enumerate(choices) if normalize_answer(choice) == normalize_answer(text)]
    return matches[0] if matches else None


@SCORERS.register("accuracy")
class Accuracy(MeanScorer):
    def score_output(self, sample: Sample, output: str) -> dict[str, float | None]:
        if not sample.choices or not sample.references:
            return {"accuracy": None}
        wanted = {reference_choice(reference, sample.choices) for reference in sample.references} - {None}
        if not wanted:
            return {"accuracy": None}
        return {"accuracy": 1.0 if picked_choice(output, sample.choices) in wanted else 0.0}


_DEFINES = re.compile(r"^(?:async\s+)?def\s", re.MULTILINE)
_FENCE = re.compile(r"```[ \t]*(?:python3?|py)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)


def answer_code(answer: str) -> str:
    """The code of an answer: its first ```python fenced block, or the whole answer when it has none."""
    fenced = _FENCE.search(answer)
    return fenced.group(1) if fenced else answer


def program(sample: Sample, answer: str) -> str:
    """What runs against a sample's tests: the answer's code when it defines a function itself (a chat model's
    whole function), else the prompt followed by the answer (a completion model continuing the prompt's signature,
    as HumanEval's own harness runs it), then the tests."""
    code = answer_code(answer)
    if not _DEFINES.search(code) and isinstance(sample.prompt, str):
        code = sample.prompt + code
    return code + "\n" + (sample.tests or "")


@SCORERS.register("pass_at_k")
class PassAtK(MeanOfSamples):
    def __init__(self, spec: MetricSpec, _judge: Any = None, _code_dir: Path | None = None):
        if (why := sandbox_available()) is not None:
            raise MetricError(f"pass_at_k runs code only in the sandbox, which is not available: {why}")
        super().__init__(spec)

    def score(self, sample: Sample, outputs: list[str]) -> SampleScore:
        if not sample.tests:
            return SampleScore(dict.fromkeys(self.keys), {"pass_at_k": {"passed": [], "statuses": []}})
        results = [run_python(program(sample, output)) for output in outputs]
        passed = [result.status == "passed" for result in results]
        n, c = len(outputs), sum(passed)
        values = {f"pass@{k}": pass_at_k(n, c, k) if n >= k else None for k in sorted(self.spec.k)}
        statuses = [result.status for result in results]
        return SampleScore(values, {"pass_at_k": {"passed": passed, "statuses": statuses}})


_VERDICT = re.compile(r"score\s*[:：]\s*\**\s*(\d+)", re.IGNORECASE)


def judge_prompt(rubric: str, sample: Sample, answer: str, scale: int) -> str:
    question = (
        sample.prompt
        if isinstance(sample.prompt, str)
        else "\n".join(f"{message.get('role', 'user')}: {message.get('content', '')}" for message in sample.prompt)
    )
    parts = [
        "You are grading an answer to a question.",
        f"Rubric:\n{rubric}",
        f"Question:\n{question}",
        *(f"Reference answer:\n{reference}" for reference in sample.references),
        f"Answer to grade:\n{answer}",
        f"Explain briefly, then end with a final line of the form 'Score: N', N an integer from 1 to {scale}.",
    ]
    return "\n\n".join(parts)


def parse_verdict(verdict: str, scale: int) -> float | None:
    """The last 'Score: N' of a verdict as (N-1)/(scale-1), in 0..1; None when it has none in 1..scale."""
    found = _VERDICT.findall(verdict)
    if not found or not 1 <= int(found[-1]) <= scale:
        return None
    return (int(found[-1]) - 1) / (scale - 1)


@SCORERS.register("judge")
class Judge(MeanOfSamples):
    def __init__(
        self,
        spec: MetricSpec,
        judge: Callable[[MetricSpec], JudgeFunction] | None = None,
        _code_dir: Path | None = None,
    ):
        if judge is None:
            raise MetricError("judge: no judge model was given to this evaluation")
        super().__init__(spec)
        self._generate = judge(spec)
        target = spec.target
        self.model = target.model if isinstance(target, ApiTarget) else target.model.path

    def score(self, sample: Sample, outputs: list[str]) -> SampleScore:
        return self.score_batch([sample], [outputs])[0]

    def score_batch(self, samples: list[Sample], outputs: list[list[str]]) -> list[SampleScore]:
        """Every answer of the batch judged in one call, so an endpoint judges them with its whole concurrency."""
        prompts = [
            [judge_prompt(self.spec.rubric or "", sample, output, self.spec.scale) for output in answers]
            for sample, answers in zip(samples, outputs, strict=True)
        ]
        verdicts = iter(self._generate([prompt for sample_prompts in prompts for prompt in sample_prompts]))
        scores = []
        for sample_prompts in prompts:
            given = [next(verdicts) for _ in sample_prompts]
            values = [parse_verdict(verdict, self.spec.scale) for verdict in given]
            details = {"judge": {"prompt": sample_prompts, "model": self.model, "verdict": given}}
            scores.append(SampleScore({"judge": _mean(values)}, details))
        return scores


@SCORERS.register("custom")
class Custom(MeanScorer):
    def __init__(self, spec: MetricSpec, _judge: Any = None, reward_code_dir: Path | None = None):
        super().__init__(spec)
        self._function = load_custom_function(spec.function or "", reward_code_dir)

    def score_output(self, sample: Sample, output: str) -> dict[str, float | None]:
        reference = sample.references[0] if sample.references else None
        value = self._function(completion=output, reference=reference, row=sample.row)
        return {"custom": as_reward(value, self.spec.function)}
