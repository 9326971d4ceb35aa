"""Platform dataset rows → the shapes TRL's trainers expect.

With a chat template the rows become conversations, so the model is trained and sampled in the same format it will
be served in; without one they stay plain text (prompt/completion, the completion carrying the loss).

SFT conversations are tokenized here, not by TRL, so that one loss policy (`train_on`, contract/data.py) holds on
both engines: the tokens of the assistant turns that train are those verl 0.9.1's MultiTurnSFTDataset marks (a turn's
rendered text after its generation prompt, up to and including its end-of-turn tokens), and the whole conversation
is the chat template's rendering of it, with the row's `tools`. TRL takes the ids and the mask as they are
(`input_ids` + `assistant_masks`: SFTTrainer builds the labels from them, truncates and drops rows with no loss).
tests/datasets/test_loss_mask.py checks the preview, the TRL trainer and verl's dataset agree token for token.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from datasets import Dataset

from training_platform.contract.data import LossTurns
from training_platform.contract.params import Algorithm


def _as_prompt(value: Any, chat: bool) -> Any:
    if isinstance(value, list):
        return value
    return [{"role": "user", "content": value}] if chat else value


def _as_completion(value: Any, chat: bool) -> Any:
    if isinstance(value, list):
        return value
    return [{"role": "assistant", "content": str(value)}] if chat else str(value)


def conversation(row: dict[str, Any], train_on: LossTurns) -> tuple[list[dict[str, Any]], list[int]]:
    """An SFT row as one conversation, and the indexes of its messages that carry the loss: the response's
    messages of a prompt/response row; every assistant turn of a `messages` row, or its last (`train_on`)."""
    if row.get("response") is None and isinstance(row.get("messages"), list):
        messages = row["messages"]
        turns = [index for index, message in enumerate(messages) if message["role"] == "assistant"]
        return messages, turns if train_on == "all_assistant" else turns[-1:]
    prompt, completion = _as_prompt(row["prompt"], True), _as_completion(row["response"], True)
    return [*prompt, *completion], list(range(len(prompt), len(prompt) + len(completion)))


def _render(tokenizer, messages: list[dict[str, Any]], tools: Any, generation_prompt: bool = False) -> list[int]:
    return tokenizer.apply_chat_template(
        messages, tools=tools, add_generation_prompt=generation_prompt, tokenize=True, return_dict=True
    )["input_ids"]


class TemplateError(ValueError):
    """The chat template renders a conversation differently from the turns that make it up."""


def tokenize_conversation(
    tokenizer, messages: list[dict[str, Any]], trained: list[int], tools: Any = None
) -> tuple[list[int], list[int]]:
    """The conversation's token ids, and 1 on the tokens of the `trained` messages: from the end of the generation
    prompt that precedes the message to the end of the message as the template renders it."""
    ids = _render(tokenizer, messages, tools)
    mask = [0] * len(ids)
    for index in trained:
        start = len(_render(tokenizer, messages[:index], tools, generation_prompt=True)) if index else 0
        through = _render(tokenizer, messages[: index + 1], tools)
        if ids[: len(through)] != through:
            # Templates that rewrite earlier turns (Qwen3's thinking tags) fail verl's own check the same way.
            raise TemplateError(f"the chat template renders turn {index + 1} differently inside the conversation")
        mask[start : len(through)] = [1] * (len(through) - start)
    return ids, mask


def _sft_chat_row(row: dict[str, Any], tokenizer, train_on: LossTurns) -> dict[str, Any]:
    messages, trained = conversation(row, train_on)
    ids, mask = tokenize_conversation(tokenizer, messages, trained, row.get("tools"))
    return {"input_ids": ids, "assistant_masks": mask}


def _sft_text_row(row: dict[str, Any]) -> dict[str, Any]:
    return {"prompt": str(row["prompt"]), "completion": str(row["response"])}


def dpo_row(row: dict[str, Any], chat: bool) -> dict[str, Any]:
    return {
        "prompt": _as_prompt(row["prompt"], chat),
        "chosen": _as_completion(row["chosen"], chat),
        "rejected": _as_completion(row["rejected"], chat),
    }


def reward_columns(row: dict[str, Any]) -> dict[str, Any]:
    """A row's columns as the reward functions receive them. Numbers become text so a column mixing 62 and "62"
    still forms one Arrow column."""
    return {key: str(value) if isinstance(value, (int, float)) else value for key, value in row.items()}


def _rl_row(row: dict[str, Any], chat: bool) -> dict[str, Any]:
    # Every other column travels with the prompt: reward functions read the answer field from it.
    return {**reward_columns(row), "prompt": _as_prompt(row["prompt"], chat)}


def to_trl_row(row: dict[str, Any], algorithm: Algorithm, tokenizer, train_on: LossTurns = "all_assistant") -> dict:
    """One platform row as the trainer receives it."""
    chat = tokenizer.chat_template is not None
    if algorithm == Algorithm.SFT:
        return _sft_chat_row(row, tokenizer, train_on) if chat else _sft_text_row(row)
    if algorithm == Algorithm.DPO:
        return dpo_row(row, chat)
    return _rl_row(row, chat)


def to_trl_dataset(
    rows: list[dict[str, Any]], algorithm: Algorithm, tokenizer, train_on: LossTurns = "all_assistant"
) -> "Dataset":
    from datasets import Dataset  # heavy; the preview only needs single rows

    return Dataset.from_list([to_trl_row(row, algorithm, tokenizer, train_on) for row in rows])


def completion_text(completion: Any) -> str:
    """A sampled completion as text, whether TRL returned a string or a list of messages."""
    if isinstance(completion, list):
        return completion[-1]["content"] if completion else ""
    return completion
