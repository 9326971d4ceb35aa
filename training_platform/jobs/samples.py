"""A GRPO/GSPO job's sample completions with their rewards (engines/trl/completions.py writes them), a step at a
time, for the job page.

The file is read from its end, at most READ_BYTES of it, whatever the training process left there; a line that is
not a sample is skipped. A step logged again after a resume (the run went back to an earlier checkpoint) shows
what the later attempt wrote.
"""

import json
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from training_platform.common.files import last_lines
from training_platform.engines.trl.completions import completions_path
from training_platform.jobs.runs import layout_of
from training_platform.jobs.service import JobService

READ_BYTES = 8 * 2**20
MAX_PAGE = 50


class CompletionSample(BaseModel):
    step: int
    index: int = Field(ge=0, description="Its place among the step's samples.")
    prompt: str
    completion: str
    rewards: dict[str, float | None] = Field(description="Each reward's score by its metric name, unweighted.")
    reward: float | None = Field(description="The rewards' weighted sum, as the trainer rewarded the completion.")


class CompletionSamplesPage(BaseModel):
    steps: list[int] = Field(description="The steps that have samples, in order.")
    step: int | None = Field(description="The step shown: the one asked for, else the latest; none without samples.")
    total: int = Field(description="The samples of that step.")
    samples: list[CompletionSample]


def job_samples(jobs: JobService, name_or_id: str, step: int | None, offset: int, limit: int) -> CompletionSamplesPage:
    """A page of one step's samples (404 for an unknown job; an empty page for a job with none yet)."""
    by_step = read_samples(completions_path(layout_of(jobs.find(name_or_id))))
    steps = sorted(by_step)
    shown = step if step is not None else (steps[-1] if steps else None)
    samples = by_step.get(shown, []) if shown is not None else []
    return CompletionSamplesPage(steps=steps, step=shown, total=len(samples), samples=samples[offset : offset + limit])


def read_samples(path: Path, limit: int = READ_BYTES) -> dict[int, list[CompletionSample]]:
    """The samples of each step in the file's last `limit` bytes."""
    by_step: dict[int, list[CompletionSample]] = {}
    for line in last_lines(path, limit):
        try:
            sample = CompletionSample.model_validate(json.loads(line))
        except (ValueError, ValidationError):
            continue
        if sample.index == 0 or sample.step not in by_step:  # the step's first: any earlier writing of it is over
            by_step[sample.step] = []
        by_step[sample.step].append(sample)
    return by_step
