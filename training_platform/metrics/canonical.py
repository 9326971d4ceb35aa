"""The platform's metric record and how trainer keys map onto it.

A step's metrics are stored flat, one value per key. The well-known values (seed 001's StructuredMetric)
use the canonical names below; every other key the trainer logged keeps its own name. On the wire — a
line of `{job}_metrics.jsonl` written by the platform's callbacks, or a WebSocket `metric` message — the
canonical values are grouped the way the monitoring summary (seed 000) shows them:

    {"step": 12, "timestamp": 1704672000.1, "epoch": 0.5, "learning_rate": 1e-5, "entropy": 2.1,
     "loss": {"total_loss": 2.5, "actor_loss": 2.4, "critic_loss": 0.3},
     "reward": {"mean": 0.5, "std": 0.1, "min": 0.0, "max": 1.0}, "kl": {"mean": 0.01, "max": 0.05},
     "gradient": {"actor_norm": 1.5, "critic_norm": 0.8},
     "performance": {"tokens_per_second": 1000, "step_time": 0.8, "gpu_memory_allocated": 40.5},
     "eval": {"loss": 2.7, "accuracy": 0.6}, "custom": {"rewards/accuracies": 0.75}}

Mapping of trainer keys (the first key of a record that maps to a canonical field wins; a later one
mapping to the same field keeps its own name):

| canonical          | TRL (1.16)                  | verl (0.9.1)                                        |
|--------------------|-----------------------------|-----------------------------------------------------|
| loss               | loss                        | train/loss (SFT), actor/loss                        |
| policy_loss        |                             | actor/pg_loss                                       |
| value_loss         |                             | critic/vf_loss                                      |
| learning_rate      | learning_rate               | train/lr, actor/lr                                  |
| grad_norm          | grad_norm                   | train/grad_norm, actor/grad_norm                    |
| critic_grad_norm   |                             | critic/grad_norm                                    |
| reward_mean / std  | reward / reward_std         | critic/score/mean                                   |
| reward_min / max   |                             | critic/score/min, critic/score/max                  |
| kl                 | kl                          | actor/kl_loss, actor/reward_kl_penalty (PPO)        |
| entropy            | entropy                     | actor/entropy                                       |
| tokens_per_second  | (from num_tokens, platform) | perf/throughput                                     |
| step_time          | step_time (or platform)     | timing_s/step                                       |
| gpu_memory_gib     | (torch.cuda, platform)      | perf/max_memory_allocated_gb, actor/perf/max_…_gb   |
| eval_loss          | eval_loss                   | val/loss                                            |
| eval_accuracy      | eval_mean_token_accuracy    |                                                     |
| epoch              | epoch                       | training/epoch                                      |
"""

import math
from collections.abc import Mapping
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
CUSTOM_GROUP = "custom"
_FROM_GROUPED = {place: name for name, place in CANONICAL_FIELDS.items()}
_GROUPS = {group for group, _ in CANONICAL_FIELDS.values() if group}

TRL_KEYS: dict[str, str] = {
    "loss": "loss",
    "learning_rate": "learning_rate",
    "grad_norm": "grad_norm",
    "reward": "reward_mean",
    "reward_std": "reward_std",
    "kl": "kl",
    "entropy": "entropy",
    "step_time": "step_time",
    "tokens_per_second": "tokens_per_second",
    "gpu_memory_allocated_gib": "gpu_memory_gib",
    "eval_loss": "eval_loss",
    "eval_mean_token_accuracy": "eval_accuracy",
    "epoch": "epoch",
}

VERL_KEYS: dict[str, str] = {
    "train/loss": "loss",
    "actor/loss": "loss",
    "actor/pg_loss": "policy_loss",
    "critic/vf_loss": "value_loss",
    "train/lr": "learning_rate",
    "actor/lr": "learning_rate",
    "train/grad_norm": "grad_norm",
    "actor/grad_norm": "grad_norm",
    "critic/grad_norm": "critic_grad_norm",
    "critic/score/mean": "reward_mean",
    "critic/score/min": "reward_min",
    "critic/score/max": "reward_max",
    "actor/kl_loss": "kl",
    # PPO with the KL penalty in the reward (use_kl_in_reward) logs the KL here instead of as a loss.
    "actor/reward_kl_penalty": "kl",
    "actor/entropy": "entropy",
    "perf/throughput": "tokens_per_second",
    "timing_s/step": "step_time",
    "perf/max_memory_allocated_gb": "gpu_memory_gib",
    "actor/perf/max_memory_allocated_gb": "gpu_memory_gib",
    "val/loss": "eval_loss",
    "training/epoch": "epoch",
}


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


def as_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    return None


def to_grouped(values: Mapping[str, float]) -> dict[str, Any]:
    """Flat values → the grouped record of seed 000 (without step and timestamp)."""
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
