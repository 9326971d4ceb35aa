"""How the rows of a data file become the platform's rows: a format preset, a field mapping, and a split.

The platform's own rows (datafiles/formats.py) are what both engines convert from. A preset names a shape that
circulates (LLaMA-Factory's alpaca and sharegpt, OpenAI messages, TRL's prompt-completion and preference types,
verl's RL parquet) and normalises each row into the platform's shape before it is validated (datafiles/presets.py);
the field mapping first exposes a file's column, or a nested value by a dotted path, under the name the preset
(or, without a preset, the platform) reads; columns dropped on purpose (`drop_columns`) are gone before either.
Both the server and the training process apply it, so this is part of the contract.
"""

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

PresetName = Literal[
    "alpaca",
    "sharegpt",
    "openai",
    "trl-prompt-completion",
    "trl-preference",
    "sharegpt-preference",
    "verl-rl",
    "mmlu",
    "humaneval",
]
PRESET_NAMES: tuple[str, ...] = PresetName.__args__
# What a registration asks for: a preset, the platform's own fields, or the one the rows fit ("auto").
PresetChoice = Literal[("auto", "platform", *PRESET_NAMES)]

# Which turns of a conversation carry the SFT loss: every assistant turn (LLaMA-Factory's, axolotl's and TRL's
# `assistant_only_loss` default) or the last one only (LLaMA-Factory's `mask_history`).
LossTurns = Literal["all_assistant", "last_assistant"]


# Bounds on what a field mapping may ask of every row (docs/security.md, "Limits"): a dotted path is walked once per
# row and per format tried, so its length and depth are bounded, and so is the count of paths.
MAX_MAPPED_FIELDS = 32
MAX_FIELD_NAME = 100
MAX_FIELD_PATH = 200
MAX_PATH_DEPTH = 8
MAX_DROPPED_COLUMNS = 64


def _shallow(path: str) -> str:
    if path.count(".") >= MAX_PATH_DEPTH:
        raise ValueError(f"a dotted path may have at most {MAX_PATH_DEPTH} parts")
    return path


FieldName = Annotated[str, Field(min_length=1, max_length=MAX_FIELD_NAME)]
FieldPath = Annotated[str, Field(min_length=1, max_length=MAX_FIELD_PATH), AfterValidator(_shallow)]
FieldMapping = Annotated[
    dict[FieldName, FieldPath],
    Field(
        max_length=MAX_MAPPED_FIELDS,
        description='Field read → the file\'s column or a dotted path into it, e.g. {"prompt": "question"} or '
        '{"solution": "reward_model.ground_truth"}; LLaMA-Factory\'s dataset_info.json `columns` are read too.',
    ),
]
DroppedColumns = Annotated[list[FieldName], Field(max_length=MAX_DROPPED_COLUMNS)]


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
    field_mapping: FieldMapping = Field(default_factory=dict)
    tags: ShareGptTags = ShareGptTags()
    drop_columns: DroppedColumns = Field(
        default_factory=list,
        description="Columns removed from every row before anything reads it (media columns the platform does not "
        "train on, dropped on purpose).",
    )
    split: str | None = Field(
        default=None, max_length=100, description="The split of a folder holding several (train, validation, test)."
    )
