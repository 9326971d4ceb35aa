"""TRL's (1.16) logged keys → the platform's canonical metric names (training_platform.contract.metrics).

Besides TRL's own keys the platform's callback adds tokens_per_second (from num_tokens), step_time (when TRL
does not log it) and gpu_memory_allocated_gib (torch.cuda's peak).
"""

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
