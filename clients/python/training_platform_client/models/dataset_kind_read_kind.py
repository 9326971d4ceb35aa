from enum import StrEnum


class DatasetKindReadKind(StrEnum):
    DPO = "dpo"
    EVAL = "eval"
    GRPO = "grpo"
    GSPO = "gspo"
    PPO = "ppo"
    SFT = "sft"

    def __str__(self) -> str:
        return str(self.value)
