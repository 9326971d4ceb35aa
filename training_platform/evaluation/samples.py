"""An eval dataset's rows (in the platform's shape, datafiles/evalrows.py) as the samples a run scores: each with its
index in the dataset, which is how a resumed run knows what it scored and how runs are compared sample by sample.

A multiple-choice row's choices are shown to the model after its question, lettered as the references name them
("A. …", one per line, then "Answer:"), as MMLU's harnesses show them: a question alone cannot be answered.
"""

from string import ascii_uppercase
from typing import Any

from training_platform.datafiles.evalrows import eval_row_parts
from training_platform.evaluation.metrics import Sample


def eval_samples(rows: list[dict[str, Any]], limit: int | None) -> list[Sample]:
    samples = []
    for index, row in enumerate(rows[:limit] if limit else rows):
        prompt, references, category, tests, choices = eval_row_parts(row)
        if choices:
            prompt = _with_choices(prompt, choices)
        samples.append(Sample(index, prompt, references, category, tests, choices, row))
    return samples


def _with_choices(prompt: str | list[dict], choices: list[str]) -> str | list[dict]:
    listed = "\n".join(f"{letter}. {choice}" for letter, choice in zip(ascii_uppercase, choices, strict=False))
    if isinstance(prompt, str):
        return f"{prompt}\n{listed}\nAnswer:"
    *earlier, last = prompt
    return [*earlier, {**last, "content": f"{last['content']}\n{listed}\nAnswer:"}]
