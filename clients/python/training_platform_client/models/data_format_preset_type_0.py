from enum import StrEnum


class DataFormatPresetType0(StrEnum):
    ALPACA = "alpaca"
    HUMANEVAL = "humaneval"
    MMLU = "mmlu"
    OPENAI = "openai"
    SHAREGPT = "sharegpt"
    SHAREGPT_PREFERENCE = "sharegpt-preference"
    TRL_PREFERENCE = "trl-preference"
    TRL_PROMPT_COMPLETION = "trl-prompt-completion"
    VERL_RL = "verl-rl"

    def __str__(self) -> str:
        return str(self.value)
