"""The per-step metrics record shared by the training processes and the platform, and its writer.

A step's metrics are stored flat, one value per key. The well-known values use the canonical names of
CANONICAL_FIELDS; every other key the trainer logged keeps its own name. On the wire (a line of
`{job}_metrics.jsonl` written by a platform callback, or a WebSocket `metric` message) the canonical values
are grouped:

    {"step": 12, "timestamp": 1704672000.1, "epoch": 0.5, "learning_rate": 1e-5, "entropy": 2.1,
     "loss": {"total_loss": 2.5, "actor_loss": 2.4, "critic_loss": 0.3},
     "reward": {"mean": 0.5, "std": 0.1, "min": 0.0, "max": 1.0}, "kl": {"mean": 0.01, "max": 0.05},
     "gradient": {"actor_norm": 1.5, "critic_norm": 0.8},
     "performance": {"tokens_per_second": 1000, "step_time": 0.8, "gpu_memory_allocated": 40.5},
     "eval": {"loss": 2.7, "accuracy": 0.6}, "custom": {"rewards/accuracies": 0.75}}

Each engine maps its trainer's keys onto the canonical names (`engines/<name>/keys.py`); the first key of a
record that maps to a canonical field wins, a later one mapping to the same field keeps its own name.
"""

import json
import math
import re
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

# canonical name → (group, name in the group); group None means the top level of the record.
CANONICAL_FIELDS: dict[str, tuple[str | None, str]] = {
    "loss": ("loss", "total_loss"),
    "policy_loss": ("loss", "actor_loss"),
    "value_loss": ("loss", "critic_loss"),
    "learning_rate": (None, "learning_rate"),
    "grad_norm": ("gradient", "actor_norm"),
    "critic_grad_norm": ("gradient", "critic_norm"),
    "reward_mean": ("reward", "mean"),
    "reward_std": ("reward", "std"),
    "reward_min": ("reward", "min"),
    "reward_max": ("reward", "max"),
    "kl": ("kl", "mean"),
    "kl_max": ("kl", "max"),
    "entropy": (None, "entropy"),
    "tokens_per_second": ("performance", "tokens_per_second"),
    "step_time": ("performance", "step_time"),
    "gpu_memory_gib": ("performance", "gpu_memory_allocated"),
    "eval_loss": ("eval", "loss"),
    "eval_accuracy": ("eval", "accuracy"),
    "epoch": (None, "epoch"),
}
# Keys every record has besides its values.
STEP, TIMESTAMP = "step", "timestamp"
# The largest step a record may have: far above any run, and with room below the 64-bit integer columns the
# platform stores steps in (a step of 2**63 or more could not be stored at all).
MAX_STEP = 2**62
CUSTOM_GROUP = "custom"
_FROM_GROUPED = {place: name for name, place in CANONICAL_FIELDS.items()}
_GROUPS = {group for group, _ in CANONICAL_FIELDS.values() if group}

# A NaN or Inf in a key naming one of these means the run is broken (a loss, a gradient norm, a reward: verl's
# actor/pg_loss, TRL's rewards/<function>/mean, ...): what the platform's non_finite detector and a trainer
# pausing on a non-finite value both look for.
NON_FINITE_WATCHED = ("loss", "grad_norm", "reward")

# Per-layer gradient norms (the gradient heatmap), written by the trainers under their own names (custom group):
# grad_norm/layer/embed, grad_norm/layer/000 … (each transformer block, zero-padded so the keys sort),
# grad_norm/layer/norm (the final norm), grad_norm/layer/head (the LM or value head, when not tied to the
# embeddings), grad_norm/layer/other (any other trainable parameter).
LAYER_GRAD_NORM_PREFIX = "grad_norm/layer/"
_BLOCK = re.compile(r"(?:^|\.)(?:layers|layer|h|blocks|block)\.(\d+)\.")
_EMBEDDINGS = re.compile(
    r"(?:^|\.)(?:embed_tokens|embed_positions|embed_in|wte|wpe|word_embeddings|tok_embeddings|embeddings)\."
)
_HEAD = re.compile(r"(?:^|\.)(?:lm_head|embed_out|score|v_head|value_head)\.")
_FINAL_NORM = re.compile(r"(?:^|\.)(?:norm|ln_f|final_layernorm|final_layer_norm|final_norm)\.")


def canonicalize(raw: Mapping[str, Any], key_map: Mapping[str, str]) -> dict[str, float]:
    """Trainer keys → canonical names where the map knows them; numbers only (bools count as 0/1)."""
    values: dict[str, float] = {}
    for key, value in raw.items():
        number = as_number(value)
        if number is None:
            continue
        name = key_map.get(key, key)
        values[key if name in values else name] = number
    return values


def is_watched_for_non_finite(key: str) -> bool:
    return any(part in key for part in NON_FINITE_WATCHED)


def non_finite_watched(raw: Mapping[str, Any]) -> dict[str, float]:
    """The values of `raw` that are NaN or Inf and name a loss, a gradient norm or a reward."""
    broken = {}
    for key, value in raw.items():
        number = as_number(value)
        if number is not None and not math.isfinite(number) and is_watched_for_non_finite(key):
            broken[key] = number
    return broken


def layer_group(parameter_name: str) -> str:
    """The heatmap row of a parameter: "embed", the zero-padded block number ("000"), "norm", "head" or "other".
    Wrappers' prefixes (peft's base_model.model., FSDP's) do not matter; a block's own norms are the block's."""
    if match := _BLOCK.search(parameter_name):
        return f"{int(match.group(1)):03d}"
    if _EMBEDDINGS.search(parameter_name):
        return "embed"
    if _HEAD.search(parameter_name):
        return "head"
    if _FINAL_NORM.search(parameter_name):
        return "norm"
    return "other"


def as_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, float):
        return value
    if isinstance(value, int):
        try:
            return float(value)
        except OverflowError:  # an integer beyond a double's range (400 digits): as a number literal would read
            return math.inf if value > 0 else -math.inf
    return None


def to_grouped(values: Mapping[str, float]) -> dict[str, Any]:
    """Flat values → the grouped record (without step and timestamp)."""
    record: dict[str, Any] = {}
    for key, value in values.items():
        group, name = CANONICAL_FIELDS.get(key, (CUSTOM_GROUP, key))
        if group is None:
            record[name] = value
        else:
            record.setdefault(group, {})[name] = value
    return record


def from_grouped(record: Mapping[str, Any]) -> dict[str, float]:
    """The grouped record of a platform line → flat values (step and timestamp excluded)."""
    values: dict[str, float] = {}
    for key, value in record.items():
        if key in (STEP, TIMESTAMP):
            continue
        if isinstance(value, Mapping) and (key in _GROUPS or key == CUSTOM_GROUP):
            for name, inner in value.items():
                number = as_number(inner)
                if number is not None:
                    values[_FROM_GROUPED.get((key, name), name) if key != CUSTOM_GROUP else name] = number
        else:
            number = as_number(value)
            if number is not None:
                values[_FROM_GROUPED.get((None, key), key)] = number
    return values


def json_number(value: float) -> float | str:
    """JSON has no NaN or Infinity: they travel as the strings "NaN", "Infinity" and "-Infinity"."""
    if math.isfinite(value):
        return value
    return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")


class MetricsWriter:
    """One JSON line per logged step, flushed at once: a follower (the platform's ingester, `tail -f`) sees
    each line as soon as it is written. NaN and Infinity are written as such (Python's JSON dialect), because
    they are exactly what diagnostics look for."""

    def __init__(self, path: Path, key_map: Mapping[str, str]):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.key_map = key_map
        self._file = open(path, "a", encoding="utf-8")

    def write(self, step: int, raw_values: Mapping[str, Any], anomaly: Mapping[str, str] | None = None) -> None:
        record: dict[str, Any] = {STEP: step, TIMESTAMP: time.time()}
        record.update(to_grouped(canonicalize(raw_values, self.key_map)))
        if anomaly:
            record["anomaly"] = dict(anomaly)
        self._file.write(json.dumps(record) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()
