"""Sample completions of a GRPO/GSPO run with their rewards: what the model actually writes, and what each reward
made of it, kept in the job's directory for the job page (jobs/samples.py serves them).

The reward functions the platform hands TRL (recipe.trl_reward_functions) note the latest batch they scored in a
`RolloutRecorder`; at a logging step (callback.CompletionsCallback) a few of its completions are appended to the
job's `completions.jsonl`, one JSON object a line: `step`, `index` (its place among the step's samples), `prompt`,
`completion`, `rewards` (each reward's score by its metric name, unweighted) and `reward` (the weighted sum the
trainer uses). Bounded: at most `SAMPLES_PER_STEP` completions a sampled step, each text cut to `SAMPLE_CHARS`, and
at most `MAX_SAMPLED_STEPS` steps sampled over the run (every step of a short run; every k-th of a long one).

Light on purpose (no torch, no transformers): the server reads the file through this module.
"""

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from training_platform.contract.layout import JobLayout
from training_platform.rewards.preview import prompt_text

COMPLETIONS_FILE = "completions.jsonl"
SAMPLES_PER_STEP = 4
MAX_SAMPLED_STEPS = 100
SAMPLE_CHARS = 2000


def completions_path(layout: JobLayout) -> Path:
    return layout.root / COMPLETIONS_FILE


def sampling_interval(max_steps: int) -> int:
    """Every how many steps completions are kept: every step of a run of at most MAX_SAMPLED_STEPS."""
    return max(1, math.ceil(max_steps / MAX_SAMPLED_STEPS))


def sampled(step: int, interval: int) -> bool:
    """Steps 1, 1 + interval, 1 + 2·interval, …: the first step always, to compare the end with."""
    return (step - 1) % interval == 0


@dataclass
class Batch:
    """One batch of completions as the reward functions scored it, on this process."""

    prompts: list[Any]
    completions: list[str]
    scores: dict[str, list[float | None]] = field(default_factory=dict)


class RolloutRecorder:
    """The latest batch the rewards scored. TRL calls the reward functions one after another on the same batch,
    the first of them starting a new one. `rewards`: each reward function's name and weight, in TRL's order."""

    def __init__(self) -> None:
        self.rewards: list[tuple[str, float]] = []
        self.batch: Batch | None = None

    def record(self, name: str, prompts: Sequence[Any], completions: Sequence[str], scores: Sequence[Any]) -> None:
        if self.batch is None or name == self.rewards[0][0]:
            self.batch = Batch(list(prompts), list(completions))
        self.batch.scores[name] = [_number(score) for score in scores]

    def samples(self, step: int) -> list[dict[str, Any]]:
        """At most SAMPLES_PER_STEP records of the latest batch, spread over it (a batch holds each prompt's
        completions side by side: spread, they show several prompts and several answers to one)."""
        batch = self.batch
        if batch is None or not batch.completions:
            return []
        count = len(batch.completions)
        chosen = (
            range(count)
            if count <= SAMPLES_PER_STEP
            else [i * count // SAMPLES_PER_STEP for i in range(SAMPLES_PER_STEP)]
        )
        records = []
        for position, index in enumerate(chosen):
            rewards = {name: values[index] for name, values in batch.scores.items() if index < len(values)}
            weighted = [weight * rewards[name] for name, weight in self.rewards if rewards.get(name) is not None]
            records.append(
                {
                    "step": step,
                    "index": position,
                    "prompt": prompt_text(batch.prompts[index] if index < len(batch.prompts) else "", SAMPLE_CHARS),
                    "completion": str(batch.completions[index])[:SAMPLE_CHARS],
                    "rewards": rewards,
                    "reward": sum(weighted) if weighted else None,
                }
            )
        return records


def append_samples(path: Path, records: list[dict[str, Any]]) -> None:
    if not records:
        return
    with path.open("a", encoding="utf-8") as file:
        file.writelines(json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n" for record in records)


def _number(value: Any) -> float | None:
    """A score as JSON can hold it: None for a reward that did not apply, or one that is not finite."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None
