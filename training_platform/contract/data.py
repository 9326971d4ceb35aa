"""How the rows of a data file become the platform's rows: a format preset, a field mapping, and a split.

The platform's own rows (datafiles/formats.py) are what both engines convert from. A preset names a shape that
circulates (LLaMA-Factory's alpaca and sharegpt, OpenAI messages, TRL's prompt-completion and preference types,
verl's RL parquet) and normalises each row into the platform's shape before it is validated (datafiles/presets.py);
the field mapping first exposes a file's column, or a nested value by a dotted path, under the name the preset
(or, without a preset, the platform) reads. Both the server and the training process apply it, so this is part of
the contract.
"""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

PresetName = Literal[
    "alpaca",
    "sharegpt",
    "openai",
    "trl-prompt-completion",
    "trl-preference",
    "sharegpt-preference",
    "verl-rl",
]
PRESET_NAMES: tuple[str, ...] = PresetName.__args__
# What a registration asks for: a preset, the platform's own fields, or the one the rows fit ("auto").
PresetChoice = Literal[("auto", "platform", *PRESET_NAMES)]

# Which turns of a conversation carry the SFT loss: every assistant turn (LLaMA-Factory's, axolotl's and TRL's
# `assistant_only_loss` default) or the last one only (LLaMA-Factory's `mask_history`).
LossTurns = Literal["all_assistant", "last_assistant"]


class ShareGptTags(BaseModel):
    """LLaMA-Factory's `tags` of a sharegpt dataset: the keys of a turn and the role each tag stands for."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    role_tag: str = Field(default="from", min_length=1, max_length=100)
    content_tag: str = Field(default="value", min_length=1, max_length=100)
    user_tag: str = Field(default="human", min_length=1, max_length=100)
    assistant_tag: str = Field(default="gpt", min_length=1, max_length=100)
    system_tag: str = Field(default="system", min_length=1, max_length=100)
    observation_tag: str = Field(default="observation", min_length=1, max_length=100)
    function_tag: str = Field(default="function_call", min_length=1, max_length=100)


class DataFormat(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    preset: PresetName | None = Field(default=None, description="The shape of the rows; none: the platform's own.")
    field_mapping: dict[str, str] = Field(
        default_factory=dict,
        description='Field read → the file\'s column or a dotted path into it, e.g. {"solution": '
        '"reward_model.ground_truth"}.',
    )
    tags: ShareGptTags = ShareGptTags()
    split: str | None = Field(
        default=None, max_length=100, description="The split of a folder holding several (train, validation, test)."
    )
