from enum import StrEnum


class SelectionReadRule(StrEnum):
    HIGHEST_REWARD_MEAN = "highest_reward_mean"
    LAST = "last"
    LOWEST_EVAL_LOSS = "lowest_eval_loss"
    METRIC = "metric"

    def __str__(self) -> str:
        return str(self.value)
