from enum import StrEnum


class DatasetRegisterPreset(StrEnum):
    ALPACA = "alpaca"
    AUTO = "auto"
    HUMANEVAL = "humaneval"
    MMLU = "mmlu"
    OPENAI = "openai"
    PLATFORM = "platform"
    SHAREGPT = "sharegpt"
    SHAREGPT_PREFERENCE = "sharegpt-preference"
    TRL_PREFERENCE = "trl-preference"
    TRL_PROMPT_COMPLETION = "trl-prompt-completion"
    VERL_RL = "verl-rl"

    def __str__(self) -> str:
        return str(self.value)
