"""verl's (0.9.1) logged keys → the platform's canonical metric names (training_platform.contract.metrics).

The SFT trainer logs train/*, the PPO trainer (PPO, GRPO, GSPO) actor/*, critic/* and perf/*; the metrics
reader applies this map to verl's file-logger lines and console lines.
"""

from training_platform.contract.params import Algorithm
from training_platform.engines.charts import Chart, EngineCharts

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

# What only some algorithms log (verl/trainer/ppo/metric_utils.py): each algorithm's charts besides the canonical
# ones (engines/charts.py). verl scores with one reward function (the platform's rewards summed): no components.
_COMPLETIONS = (
    Chart("completion_length", ("response_length/mean", "response_length/min", "response_length/max")),
    Chart("completions_clipped", ("response_length/clip_ratio",)),
)
VERL_CHARTS: EngineCharts = {
    Algorithm.GRPO: _COMPLETIONS,
    Algorithm.GSPO: _COMPLETIONS,
    Algorithm.PPO: (
        Chart("value_loss", ("value_loss",)),
        Chart("returns", ("critic/returns/mean", "critic/values/mean")),
        Chart("explained_variance", ("critic/vf_explained_var",)),
        *_COMPLETIONS,
    ),
}
