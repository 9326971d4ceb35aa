"""What a job's rule rewards would give a model that answers right, before the job is launched.

A GRPO/GSPO job whose rewards score 0 on everything the model can write trains on no signal at all (every
advantage is 0): the classic case is the default `boxed` extraction on a dataset whose answers are plain numbers.
The cheap, honest check is to score completions that are right by construction, in the forms a model writes:

- `reference`: the row's reference answer itself, as the dataset holds it ("7", or a worked solution ending in
  \\boxed{7} or "#### 7");
- `plain`: that answer said in a plain sentence ("The answer is 7."), as a model that was never taught a format
  answers.

When neither scores above 0 on any row, neither will the model's own completions, however right they are.
"""

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from training_platform.errors import FieldError, InvalidInputError
from training_platform.rewards.comparison import reference_answer
from training_platform.rewards.errors import RewardConfigError
from training_platform.rewards.functions import build_reward_function
from training_platform.rewards.spec import RewardSpec

MAX_PREVIEW_ROWS = 16
# Characters of a prompt, a reference or a completion the preview sends back: enough to recognise the row.
SHOWN_CHARS = 300

CompletionKind = Literal["reference", "plain"]


class RewardPreviewCompletion(BaseModel):
    kind: CompletionKind = Field(
        description="reference: the row's reference as the completion; plain: its answer "
        "in a plain sentence ('The answer is 7.')."
    )
    text: str = Field(description=f"The completion scored (its first {SHOWN_CHARS} characters).")
    scores: list[float] = Field(description="Each reward's score, unweighted, in the order of the rewards.")
    total: float = Field(description="The rewards' weighted sum: what the trainer would reward this completion with.")


class RewardPreviewRow(BaseModel):
    row: int = Field(description="The row's number in the dataset (1-based).")
    prompt: str = Field(description=f"The prompt (its first {SHOWN_CHARS} characters; a conversation's last turn).")
    reference: str | None = Field(description="The reference answer the rewards compare with; none in the row.")
    completions: list[RewardPreviewCompletion]


def plain_answer(reference: Any) -> str:
    """A reference's answer said as a model that knows it, untaught in any format, would say it."""
    return f"The answer is {reference_answer(reference).strip()}."


def score_rows(
    specs: Sequence[RewardSpec], rows: Sequence[tuple[int, Mapping[str, Any]]], code_dir: Path | None
) -> list[RewardPreviewRow]:
    """Each numbered row's right completions scored by every reward, as the trainer scores them. A reward that
    cannot score one (a custom function that raises, an answer column the row lacks) is an InvalidInputError on
    that reward (`rewards.<index>`)."""
    functions = []
    for index, spec in enumerate(specs):
        try:
            functions.append(build_reward_function(spec, code_dir))
        except RewardConfigError as error:
            raise InvalidInputError([FieldError(f"rewards.{index}.function", str(error))]) from None
    answer_field = _answer_field(specs)
    result = []
    for number, row in rows:
        reference = row.get(answer_field)
        texts = {"reference": "", "plain": ""} if reference is None else _right_completions(reference)
        completions = []
        for kind, text in texts.items():
            scores = [_scored(index, function, text, row) for index, function in enumerate(functions)]
            total = sum(spec.weight * value for spec, value in zip(specs, scores, strict=True))
            completions.append(RewardPreviewCompletion(kind=kind, text=text[:SHOWN_CHARS], scores=scores, total=total))
        shown = None if reference is None else str(reference)[:SHOWN_CHARS]
        result.append(
            RewardPreviewRow(
                row=number, prompt=prompt_text(row.get("prompt")), reference=shown, completions=completions
            )
        )
    return result


def _answer_field(specs: Sequence[RewardSpec]) -> str:
    """The column holding the reference: the first reward's that compares with one (format checks read none)."""
    answered = [spec.answer_field for spec in specs if spec.type != "format_check"]
    return answered[0] if answered else specs[0].answer_field


def _right_completions(reference: Any) -> dict[CompletionKind, str]:
    return {"reference": str(reference), "plain": plain_answer(reference)}


def _scored(index: int, function, completion: str, row: Mapping[str, Any]) -> float:
    try:
        return function([completion], [row])[0]
    except RewardConfigError as error:
        setting, _, message = str(error).partition(": ")
        if setting != "answer_field":  # a custom function that raised, or returned no number
            setting, message = "function", str(error)
        raise InvalidInputError([FieldError(f"rewards.{index}.{setting}", message)]) from None


def prompt_text(prompt: Any, limit: int = SHOWN_CHARS) -> str:
    """A prompt as text, its first `limit` characters: a conversation's last turn (the question), or the text."""
    if isinstance(prompt, list):
        prompt = prompt[-1].get("content", "") if prompt and isinstance(prompt[-1], dict) else ""
    return str(prompt or "")[:limit]


def all_zero(rows: Sequence[RewardPreviewRow]) -> bool:
    """No right completion of any row earns a reward: the trainer would see no signal."""
    return bool(rows) and all(completion.total == 0 for row in rows for completion in row.completions)


def always_zero(rows: Sequence[RewardPreviewRow], count: int) -> list[int]:
    """The rewards (by index) that give 0 to every right completion of every row."""
    return [
        index
        for index in range(count)
        if rows and all(completion.scores[index] == 0 for row in rows for completion in row.completions)
    ]


def boxed_without_boxes(specs: Sequence[RewardSpec], rows: Sequence[RewardPreviewRow]) -> bool:
    """A reward reads `\\boxed{}` answers and no reference is boxed: the commonest reason for all zeros."""
    reads_boxes = any(spec.type != "custom" and spec.extraction == "boxed" and spec.pattern is None for spec in specs)
    return reads_boxes and not any(row.reference and "\\boxed" in row.reference for row in rows)
