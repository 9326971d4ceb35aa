from enum import StrEnum


class Algorithm(StrEnum):
    DPO = "dpo"
    GRPO = "grpo"
    GSPO = "gspo"
    PPO = "ppo"
    SFT = "sft"

    def __str__(self) -> str:
        return str(self.value)
