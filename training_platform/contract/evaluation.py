"""Evaluation runs: a model (a directory, a registered model, a job's checkpoint) or an OpenAI-compatible endpoint
answers an eval dataset's prompts, and each answer is scored by the metrics the run names (docs/evaluation.md).

An evaluation is a job of its own kind, like a surgery run (contract/surgery.py): the same table, queue,
supervisor, status file, logs, stop and events. Unlike a surgery run it resumes: every scored sample is appended to
the run's sample file as it is scored, and a resumed run generates only the samples the file does not hold.

`METRICS` is the table of the metrics the platform computes, by the names requests use: what each needs of a
dataset row, its keys, its scale and the library that computes it. The scorers (evaluation/metrics.py) are
registered by the same names, and a test holds the two to each other.
"""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from training_platform.contract.surgery import ModelSource

EVALUATE = "evaluate"  # the job kind (a job's `algorithm`)
MAX_METRICS = 16
MAX_SAMPLES_PER_PROMPT = 64
SECRET_ENVIRONMENT_PREFIX = "TPLAT_SECRET_"

Need = Literal["references", "choices", "tests"]


@dataclass(frozen=True)
class MetricInfo:
    """A metric as requests name it: what each sample needs, the keys it reports, their scale, and who computes it."""

    help: str
    needs: tuple[Need, ...]
    keys: tuple[str, ...]  # the values it reports (ROUGE: three); pass@k: one per k, named at run time
    scale: Literal["fraction", "percent", "score"]  # 0-1, 0-100 (sacrebleu's), a judge's 0-1 from its scale
    library: str
    options: tuple[str, ...] = ()  # the options a MetricSpec may set for it


METRICS: dict[str, MetricInfo] = {
    "exact_match": MetricInfo(
        "1 when the answer equals a reference after normalisation (case, punctuation, articles, whitespace).",
        ("references",),
        ("exact_match",),
        "fraction",
        "the platform (SQuAD's normalisation)",
        ("normalize",),
    ),
    "bleu": MetricInfo(
        "Corpus BLEU against every reference.", ("references",), ("bleu",), "percent", "sacrebleu", ("tokenize",)
    ),
    "chrf": MetricInfo("Corpus chrF against every reference.", ("references",), ("chrf",), "percent", "sacrebleu"),
    "rouge": MetricInfo(
        "ROUGE-1, ROUGE-2 and ROUGE-L F1, the best over the references.",
        ("references",),
        ("rouge1", "rouge2", "rougeL"),
        "fraction",
        "rouge-score",
        ("tokenize",),
    ),
    "math": MetricInfo(
        "1 when the answer's final expression is mathematically equal to a reference.",
        ("references",),
        ("math",),
        "fraction",
        "math-verify",
    ),
    "accuracy": MetricInfo(
        "Multiple choice: 1 when the choice the answer picks (its letter or its text) is the reference.",
        ("choices", "references"),
        ("accuracy",),
        "fraction",
        "the platform",
    ),
    "pass_at_k": MetricInfo(
        "pass@k over n samples per prompt, each run against the row's tests in a sandbox (the unbiased estimator "
        "of Chen et al. 2021).",
        ("tests",),
        (),
        "fraction",
        "the platform (HumanEval's estimator)",
        ("k",),
    ),
    "judge": MetricInfo(
        "A model reachable as a target scores each answer against a rubric; its prompt and verdict are kept.",
        (),
        ("judge",),
        "score",
        "the judge model",
        ("rubric", "target", "scale", "max_new_tokens"),
    ),
    "custom": MetricInfo(
        "A function from the reward code directory, called as rewards are: (completion, reference, row).",
        (),
        ("custom",),
        "score",
        "your code",
        ("function",),
    ),
}
MetricName = Literal[tuple(METRICS)]


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ApiTarget(StrictModel):
    """An OpenAI-compatible server: `/v1/chat/completions` (chat template on) or `/v1/completions` (off)."""

    kind: Literal["api"] = "api"
    base_url: str = Field(min_length=1, max_length=2048, description="Up to and including /v1.")
    model: str = Field(min_length=1, max_length=256, description="The model name the server serves.")
    api_key_secret: str | None = Field(
        default=None, max_length=128, description="The name of the secret (POST /secrets) holding the API key."
    )
    concurrency: int = Field(default=8, ge=1, le=256, description="Requests in flight at once.")
    requests_per_second: float | None = Field(default=None, gt=0, le=10_000, description="At most this many starts.")
    max_retries: int = Field(default=4, ge=0, le=10, description="On 429, 5xx and dropped connections, with backoff.")
    timeout_seconds: float = Field(default=120, gt=0, le=3600)

    @field_validator("base_url")
    @classmethod
    def _http(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")) or any(c.isspace() for c in value):
            raise ValueError("an http:// or https:// URL")
        return value.rstrip("/")


class ModelTarget(StrictModel):
    """A Hugging Face model directory, generated from in the run's own process."""

    kind: Literal["model"] = "model"
    model: ModelSource
    batch_size: int = Field(default=8, ge=1, le=512, description="Prompts generated together.")


Target = Annotated[ApiTarget | ModelTarget, Field(discriminator="kind")]


class GenerationSettings(StrictModel):
    max_new_tokens: int = Field(default=256, ge=1, le=32_768)
    temperature: float = Field(default=0.0, ge=0, le=2, description="0: greedy, the same answer every time.")
    top_p: float = Field(default=1.0, gt=0, le=1)
    n: int = Field(default=1, ge=1, le=MAX_SAMPLES_PER_PROMPT, description="Answers per prompt (pass@k needs k).")
    stop: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(default=[], max_length=8)
    seed: int = Field(default=0, ge=0, le=2**31 - 1)
    chat_template: bool = Field(default=True, description="Send prompts as chat messages (the model's template).")


class MetricSpec(StrictModel):
    """A metric and its options (each valid only for the metrics METRICS says take it)."""

    name: MetricName
    normalize: bool = True  # exact_match: SQuAD's normalisation; off: the stripped strings must be equal
    tokenize: Literal["auto", "13a", "zh", "intl", "char", "none"] = "auto"  # auto: zh when a reference is Chinese
    k: list[Annotated[int, Field(ge=1, le=MAX_SAMPLES_PER_PROMPT)]] = [1]
    rubric: str | None = Field(default=None, max_length=8192)
    target: Target | None = None  # judge: the model that judges
    scale: int = Field(default=10, ge=2, le=100)  # judge: verdicts from 1 to `scale`
    max_new_tokens: int = Field(default=256, ge=1, le=8192)  # judge: the longest verdict (greedy)
    function: str | None = Field(default=None, max_length=512)  # custom: 'file.py:function' or 'module:function'

    @model_validator(mode="after")
    def _options_fit(self) -> "MetricSpec":
        info = METRICS[self.name]
        for option, field in type(self).model_fields.items():
            # An option the metric does not take must keep its default (a stored run writes every field back).
            if option != "name" and option not in info.options and getattr(self, option) != field.get_default():
                raise ValueError(f"{option}: {self.name} takes {', '.join(info.options) or 'no options'}")
        if self.name == "judge" and (self.rubric is None or self.target is None):
            raise ValueError("rubric: a judge needs a rubric and a target" if self.rubric is None else "target: needed")
        if self.name == "custom" and not self.function:
            raise ValueError("function: a custom metric names 'file.py:function' or 'module:function'")
        if self.name == "pass_at_k" and len(set(self.k)) != len(self.k):
            raise ValueError("k: each value once")
        return self

    @property
    def keys(self) -> tuple[str, ...]:
        if self.name == "pass_at_k":
            return tuple(f"pass@{k}" for k in sorted(self.k))
        return METRICS[self.name].keys


class EvalParams(StrictModel):
    """An evaluation run's parameters; the dataset is the run's (RunSpec.dataset_paths, one eval dataset)."""

    algorithm: Literal["evaluate"] = EVALUATE
    num_gpus: int = Field(default=0, ge=0, le=1, description="0: on the CPU; 1: a local model on one GPU.")
    target: Target
    generation: GenerationSettings = GenerationSettings()
    metrics: list[MetricSpec] = Field(min_length=1, max_length=MAX_METRICS)
    limit: int | None = Field(default=None, ge=1, le=1_000_000, description="Only the first `limit` samples.")
    bootstrap_resamples: int = Field(default=1000, ge=100, le=100_000, description="For confidence intervals.")
    confidence: float = Field(default=0.95, gt=0.5, lt=1)
    dataset_sha256: str | None = None  # the content hash of the dataset, to compare runs on the same data
    dataset_name: str | None = None

    @model_validator(mode="after")
    def _metrics_fit(self) -> "EvalParams":
        names = [metric.name for metric in self.metrics if metric.name not in ("judge", "custom")]
        if len(set(names)) != len(names):
            raise ValueError("metrics: each metric once (a judge or a custom metric may appear several times)")
        for index, metric in enumerate(self.metrics):
            if metric.name == "pass_at_k" and max(metric.k) > self.generation.n:
                raise ValueError(f"metrics.{index}.k: pass@{max(metric.k)} needs generation.n of at least that")
        return self

    @property
    def secrets(self) -> list[str]:
        """The secrets the run's process needs, by name: the target's key and each judge's."""
        targets = [self.target, *(metric.target for metric in self.metrics if metric.target is not None)]
        return sorted({t.api_key_secret for t in targets if isinstance(t, ApiTarget) and t.api_key_secret})

    @property
    def sources(self) -> list[ModelSource]:
        return [self.target.model] if isinstance(self.target, ModelTarget) else []


def prompt_text(prompt: str | list[dict]) -> str:
    """A prompt as text to search: its chat messages' contents, one after another."""
    return prompt if isinstance(prompt, str) else "\n".join(str(message.get("content", "")) for message in prompt)


def secret_variable(name: str) -> str:
    """The environment variable that carries secret `name` to a run's process (never a file, never the database)."""
    return SECRET_ENVIRONMENT_PREFIX + name.encode().hex().upper()


class SampleRecord(BaseModel):
    """One line of a run's sample file: the sample, every answer, and each metric's value on it."""

    index: int  # the row's position in the dataset, from 0
    category: str | None = None
    prompt: str | list[dict]
    references: list[str] = []
    outputs: list[str]
    values: dict[str, float | None]  # metric key → value; None: the metric could not score it (a judge's verdict)
    details: dict[str, Any] = {}  # per metric name: what it kept (the judge's prompt, model and verdict)
    seconds: float = 0.0  # the share of generation time of this sample's batch


def read_samples(path: Path) -> list[SampleRecord]:
    """A run's sample file, each sample once (its first record), in the order written; a last line without its
    newline is still being written (or was cut by a crash) and is not a sample yet."""
    if not path.is_file():
        return []
    records: dict[int, SampleRecord] = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.endswith("\n"):
                break
            try:
                record = SampleRecord.model_validate(json.loads(line))
            except ValueError as error:
                raise ValueError(f"{path.name} line {number} is not a scored sample: {error}") from None
            records.setdefault(record.index, record)
    return list(records.values())


class Estimate(BaseModel):
    """An aggregate over samples with its bootstrap confidence interval (None where it cannot be computed)."""

    value: float | None
    low: float | None = None
    high: float | None = None
    count: int  # samples with a value


class EvalResults(BaseModel):
    """A run's `results.json`: written once, when every sample is scored."""

    samples: int
    confidence: float
    overall: dict[str, Estimate]
    categories: dict[str, dict[str, Estimate]]
    category_sizes: dict[str, int]
    seconds: float
