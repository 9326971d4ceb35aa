"""Platform dataset rows → the shapes TRL's trainers expect.

With a chat template the rows become conversations, so the model is trained and sampled in the same
format it will be served in; without one they stay plain text. Only the final assistant turn carries
the loss (prompt/completion), which is what TRL does for prompt-completion data.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from datasets import Dataset

from training_platform.contract.params import Algorithm


def _as_prompt(value: Any, chat: bool) -> Any:
    if isinstance(value, list):
        return value
    return [{"role": "user", "content": value}] if chat else value


def _as_completion(value: Any, chat: bool) -> Any:
    return [{"role": "assistant", "content": str(value)}] if chat else str(value)


def _sft_row(row: dict[str, Any], chat: bool) -> dict[str, Any]:
    if "messages" in row and row.get("response") is None:
        messages = row["messages"]
        last_assistant = max(i for i, m in enumerate(messages) if m["role"] == "assistant")
        return {"prompt": messages[:last_assistant], "completion": [messages[last_assistant]]}
    return {"prompt": _as_prompt(row["prompt"], chat), "completion": _as_completion(row["response"], chat)}


def _dpo_row(row: dict[str, Any], chat: bool) -> dict[str, Any]:
    return {
        "prompt": _as_prompt(row["prompt"], chat),
        "chosen": _as_completion(row["chosen"], chat),
        "rejected": _as_completion(row["rejected"], chat),
    }


def _rl_row(row: dict[str, Any], chat: bool) -> dict[str, Any]:
    # Every other column travels with the prompt: reward functions read the answer field from it.
    # Numbers become text so a column mixing 62 and "62" still forms one Arrow column.
    columns = {key: str(value) if isinstance(value, (int, float)) else value for key, value in row.items()}
    return {**columns, "prompt": _as_prompt(row["prompt"], chat)}


_CONVERTERS = {
    Algorithm.SFT: _sft_row,
    Algorithm.DPO: _dpo_row,
    Algorithm.GRPO: _rl_row,
    Algorithm.GSPO: _rl_row,
}


def to_trl_row(row: dict[str, Any], algorithm: Algorithm, chat: bool) -> dict[str, Any]:
    """One platform row as the trainer sees it (also what the dataset preview highlights)."""
    return _CONVERTERS[algorithm](row, chat)


def to_trl_dataset(rows: list[dict[str, Any]], algorithm: Algorithm, chat: bool) -> "Dataset":
    from datasets import Dataset  # heavy; the preview only needs single rows

    return Dataset.from_list([to_trl_row(row, algorithm, chat) for row in rows])


def completion_text(completion: Any) -> str:
    """A sampled completion as text, whether TRL returned a string or a list of messages."""
    if isinstance(completion, list):
        return completion[-1]["content"] if completion else ""
    return completion
