"""The platform's metric record (monitoring summary, seed 000 §1.1) and how trainer keys map onto it.

A metrics line groups the well-known values the way the seed's format does and keeps every other key
the trainer logged, under its own name, in `custom`:

    {"step": 12, "timestamp": 1704672000.1, "epoch": 0.5, "learning_rate": 1e-5, "entropy": 2.1,
     "loss": {"total_loss": 2.5}, "reward": {"mean": 0.5, "std": 0.1}, "kl": {"mean": 0.01},
     "gradient": {"norm": 1.5}, "performance": {"step_time": 0.8, "tokens_per_second": 1000},
     "eval": {"loss": 2.7}, "custom": {"rewards/accuracies": 0.75}}
"""

from collections.abc import Mapping
from typing import Any

# (group, name); a group of None puts the value at the top level of the line.
TRL_KEYS: dict[str, tuple[str | None, str]] = {
    "loss": ("loss", "total_loss"),
    "learning_rate": (None, "learning_rate"),
    "entropy": (None, "entropy"),
    "grad_norm": ("gradient", "norm"),
    "reward": ("reward", "mean"),
    "reward_std": ("reward", "std"),
    "kl": ("kl", "mean"),
    "step_time": ("performance", "step_time"),
    # Computed by the platform's callback from the trainer's counters and the device.
    "tokens_per_second": ("performance", "tokens_per_second"),
    "gpu_memory_allocated_gib": ("performance", "gpu_memory_allocated_gib"),
    "eval_loss": ("eval", "loss"),
    "eval_mean_token_accuracy": ("eval", "accuracy"),
}


def structure(values: Mapping[str, Any], key_map: Mapping[str, tuple[str | None, str]]) -> dict[str, Any]:
    """Arrange raw trainer values into the grouped record; unmapped keys land in `custom`."""
    record: dict[str, Any] = {}
    for key, value in values.items():
        group, name = key_map.get(key, ("custom", key))
        if group is None:
            record[name] = value
        else:
            record.setdefault(group, {})[name] = value
    return record
