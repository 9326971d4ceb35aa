"""Paged rows, and one row as the model sees it with the tokens that carry the loss highlighted.

The row goes through the engine's own conversion (engines/trl/data.py) and is tokenized as the trainer receives it,
truncated to `max_length` keeping the start:
- SFT with a chat template: the conversation as engines/trl/data.py tokenizes it for both engines, the assistant
  turns the job's `train_on` names carrying the loss; without one, the way TRL 1.16 prepares plain
  prompt/completion text (`trl.data_utils._tokenize`, `common_prefix_length`, the EOS added to the completion).
- DPO (`DPOTrainer._prepare_dataset` and `DataCollatorForPreference`): the chosen and the rejected completion,
  each after the shared prompt, carry it.
- RL kinds learn from generated completions, so no token of the data carries the loss; the prompt is shown as
  the model receives it (with the generation prompt).
The preview warns when the model's chat template does not render the row's tools or tool calls
(engines/templates.py).
tests/datasets/test_loss_mask.py builds the real trainers (and verl's SFT dataset) and compares token for token.
"""

from itertools import groupby
from typing import Any

from pydantic import BaseModel, Field

from training_platform.contract.data import LossTurns
from training_platform.contract.params import Algorithm
from training_platform.datafiles.errors import RowProblem
from training_platform.engines.templates import template_drops


class RowOut(BaseModel):
    row: int
    data: dict[str, Any] | None  # the row as stored (the file's own column names)
    problem: str | None = None  # why the row cannot be read


class RowsPage(BaseModel):
    total: int
    offset: int
    rows: list[RowOut]


class Token(BaseModel):
    id: int
    text: str
    loss: bool


class Span(BaseModel):
    text: str
    loss: bool


class Sequence(BaseModel):
    name: str  # "completion" (SFT), "chosen" / "rejected" (DPO), "prompt" (RL)
    text: str
    tokens: list[Token]
    spans: list[Span]  # consecutive tokens with the same loss flag, decoded together
    num_tokens: int
    loss_tokens: int
    truncated: bool  # longer than max_length, cut as the trainer cuts it
    dropped: bool  # the trainer skips this example (no loss token left after truncation)


class LossPreview(BaseModel):
    row: int
    kind: str
    tokenizer: str
    chat_template: bool
    max_length: int
    train_on: LossTurns
    sequences: list[Sequence]
    # engines/templates.py: a template that drops them trains a tool-call turn as an empty reply.
    warnings: list[str] = Field(
        default_factory=list, description="The row's tools and tool calls the model's chat template does not render."
    )


def row_out(number: int, row: dict[str, Any] | RowProblem) -> RowOut:
    if isinstance(row, RowProblem):
        return RowOut(row=number, data=None, problem=row.message)
    return RowOut(row=number, data=row)


def _sequence(tokenizer, name: str, ids: list[int], mask: list[int], max_length: int, dropped: bool) -> Sequence:
    truncated = len(ids) > max_length
    ids, mask = ids[:max_length], mask[:max_length]
    tokens = [Token(id=i, text=tokenizer.decode([i]), loss=bool(m)) for i, m in zip(ids, mask, strict=True)]
    spans = [
        Span(text=tokenizer.decode([token.id for token in group]), loss=loss)
        for loss, group in ((key, list(items)) for key, items in groupby(tokens, key=lambda t: t.loss))
    ]
    return Sequence(
        name=name,
        text=tokenizer.decode(ids),
        tokens=tokens,
        spans=spans,
        num_tokens=len(ids),
        loss_tokens=sum(mask),
        truncated=truncated,
        dropped=dropped or not any(mask) and name != "prompt",
    )


def _with_eos(text: str, eos: str) -> str:
    return text if text.endswith(eos) else text + eos


def _sft(tokenizer, row: dict[str, Any], max_length: int, train_on: LossTurns) -> list[Sequence]:
    from training_platform.engines.trl.data import to_trl_row

    example = to_trl_row(row, Algorithm.SFT, tokenizer, train_on)
    if "input_ids" in example:  # a conversation, tokenized by the engine itself
        ids, mask = example["input_ids"], example["assistant_masks"]
    else:
        from trl.data_utils import _tokenize, common_prefix_length

        completion = _with_eos(example["completion"], tokenizer.eos_token)
        prompt_ids = _tokenize(tokenizer, example["prompt"])["input_ids"]
        ids = _tokenize(tokenizer, example["prompt"] + completion)["input_ids"]
        prompt_length = common_prefix_length(prompt_ids, ids)
        mask = [0] * prompt_length + [1] * (len(ids) - prompt_length)
    return [_sequence(tokenizer, "completion", ids, mask, max_length, dropped=False)]


def _dpo(tokenizer, example: dict[str, Any], max_length: int) -> list[Sequence]:
    from trl.data_utils import _tokenize, common_prefix_length, is_conversational

    conversational = is_conversational(example)
    completions = {name: example[name] for name in ("chosen", "rejected")}
    if conversational:
        prompt_ids = _tokenize(tokenizer, example["prompt"], add_generation_prompt=True)["input_ids"]
    else:
        completions = {name: _with_eos(text, tokenizer.eos_token) for name, text in completions.items()}
        prompt_ids = _tokenize(tokenizer, example["prompt"])["input_ids"]
    full = {name: _tokenize(tokenizer, example["prompt"] + text)["input_ids"] for name, text in completions.items()}
    prompt_length = min(common_prefix_length(prompt_ids, ids) for ids in full.values())
    shared = prompt_ids[:prompt_length]
    dropped = len(shared) >= max_length  # DPOTrainer filters these out before training
    sequences = []
    for name, ids in full.items():
        completion = ids[prompt_length:]
        mask = [0] * len(shared) + [1] * len(completion)
        sequences.append(_sequence(tokenizer, name, shared + completion, mask, max_length, dropped))
    return sequences


def _rl(tokenizer, row: dict[str, Any], max_length: int) -> list[Sequence]:
    prompt = row["prompt"]
    if isinstance(prompt, list) or tokenizer.chat_template is not None:
        messages = prompt if isinstance(prompt, list) else [{"role": "user", "content": prompt}]
        ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True, return_dict=True)
        ids = ids["input_ids"]
    else:
        ids = tokenizer(text=prompt)["input_ids"]
    return [_sequence(tokenizer, "prompt", ids, [0] * len(ids), max_length, dropped=False)]


def loss_preview(
    number: int,
    row: dict[str, Any],
    kind: str,
    tokenizer,
    tokenizer_name: str,
    max_length: int,
    train_on: LossTurns = "all_assistant",
) -> LossPreview:
    """`row` is in the platform's shape (its data format applied) and passed validation."""
    from training_platform.engines.trl.data import dpo_row

    chat = tokenizer.chat_template is not None
    if kind == "sft":
        sequences = _sft(tokenizer, row, max_length, train_on)
    elif kind == "dpo":
        sequences = _dpo(tokenizer, dpo_row(row, chat), max_length)
    else:
        sequences = _rl(tokenizer, row, max_length)
    return LossPreview(
        row=number,
        kind=kind,
        tokenizer=tokenizer_name,
        chat_template=chat,
        max_length=max_length,
        train_on=train_on,
        sequences=sequences,
        warnings=template_drops(tokenizer, row),
    )
