"""TRL's (1.16) logged keys → the platform's canonical metric names (training_platform.contract.metrics).

Besides TRL's own keys the platform's callback adds tokens_per_second (from num_tokens), step_time (when TRL
does not log it) and gpu_memory_allocated_gib (torch.cuda's peak).
"""

from training_platform.contract.params import Algorithm
from training_platform.engines.charts import Chart, EngineCharts

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

# What only some algorithms log (trl/trainer/*_trainer.py, under their own names): each algorithm's charts besides
# the canonical ones (engines/charts.py).
_COMPLETIONS = (
    Chart("reward_components", ("rewards/*/mean",)),
    Chart("completion_length", ("completions/mean_length", "completions/min_length", "completions/max_length")),
    Chart("completions_clipped", ("completions/clipped_ratio",)),
    Chart("reward_zero_std", ("frac_reward_zero_std",)),
)
TRL_CHARTS: EngineCharts = {
    # padding_ratio: the platform's SFT trainer's share of a step's positions that are padding (engines/trl/packing.py)
    Algorithm.SFT: (Chart("token_accuracy", ("mean_token_accuracy",)), Chart("padding", ("padding_ratio",))),
    Algorithm.DPO: (
        Chart("margins", ("rewards/margins",)),
        Chart("accuracies", ("rewards/accuracies",)),
        Chart("chosen_rejected", ("rewards/chosen", "rewards/rejected")),
        Chart("logps", ("logps/chosen", "logps/rejected")),
    ),
    Algorithm.GRPO: _COMPLETIONS,
    Algorithm.GSPO: _COMPLETIONS,
}
