"""verl's (0.9.1) logged keys → the platform's canonical metric names (training_platform.contract.metrics).

The SFT trainer logs train/*, the PPO trainer (PPO, GRPO, GSPO) actor/*, critic/* and perf/*; the metrics
reader applies this map to verl's file-logger lines and console lines.
"""

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
