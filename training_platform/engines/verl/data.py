"""Platform datasets → the parquet layouts verl reads (verl 0.9.1).

- SFT (MultiTurnSFTDataset, through the platform's subclass in engines/verl/sft_dataset.py): `messages` and `tools`,
  each as JSON text.
- RL (RLHFDataset): `data_source`, `prompt` (a chat list; verl applies the chat template), `ability`,
  `reward_model` {style: rule, ground_truth}, `extra_info` {split, index, row}; `row` carries the whole
  original row as JSON so the platform's reward functions see every column, as they do under TRL.
"""

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from training_platform.contract.data import DataFormat
from training_platform.datafiles.rows import read_rows

DEFAULT_DATA_SOURCE = "platform"


def _chat(prompt: Any) -> list[dict[str, str]]:
    return prompt if isinstance(prompt, list) else [{"role": "user", "content": str(prompt)}]


def _completion(response: Any) -> list[dict[str, Any]]:
    return response if isinstance(response, list) else [{"role": "assistant", "content": str(response)}]


def sft_record(row: dict[str, Any]) -> dict[str, Any]:
    """`messages` and `tools` as JSON text, which the platform's dataset class parses (engines/verl/sft_dataset.py)."""
    if row.get("response") is None and isinstance(row.get("messages"), list):
        messages = row["messages"]
    else:
        messages = [*_chat(row["prompt"]), *_completion(row["response"])]
    return {
        "messages": json.dumps(messages, ensure_ascii=False),
        "tools": json.dumps(row.get("tools"), ensure_ascii=False),
    }


def rl_record(row: dict[str, Any], index: int, split: str, answer_field: str | None) -> dict[str, Any]:
    ground_truth = row.get(answer_field) if answer_field else None
    return {
        "data_source": str(row.get("data_source") or DEFAULT_DATA_SOURCE),
        "prompt": _chat(row["prompt"]),
        "ability": str(row.get("ability") or "general"),
        "reward_model": {"style": "rule", "ground_truth": "" if ground_truth is None else str(ground_truth)},
        "extra_info": {"split": split, "index": index, "row": json.dumps(row, ensure_ascii=False, default=str)},
    }


def write_parquet(records: list[dict[str, Any]], target: Path) -> Path:
    """Written to a temporary name and renamed, so a half-written file is never read."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(f".{target.name}.partial")
    pq.write_table(pa.Table.from_pylist(records), staging)
    staging.replace(target)
    return target


def convert(
    paths: list[str],
    target: Path,
    kind: str,
    split: str = "train",
    answer_field: str | None = None,
    formats: dict[str, DataFormat] | None = None,
) -> Path:
    rows = read_rows(paths, formats or {}, kind)
    if kind == "sft":
        records = [sft_record(row) for row in rows]
    else:
        records = [rl_record(row, index, split, answer_field) for index, row in enumerate(rows)]
    return write_parquet(records, target)
