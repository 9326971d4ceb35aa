"""Per-algorithm training parameters: one validated model per algorithm.

Batch sizes follow verl's semantics so a job means the same thing on every engine:
`batch_size` is the global number of samples per optimizer step (prompts, for RL algorithms),
`micro_batch_size` is what one GPU processes per forward pass (responses, for RL algorithms).
"""

import re
from enum import StrEnum
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from training_platform.contract.data import LossTurns
from training_platform.rewards import RewardSpec


class Algorithm(StrEnum):
    SFT = "sft"
    DPO = "dpo"
    GRPO = "grpo"
    GSPO = "gspo"
    PPO = "ppo"


# Bounds of every number in a job's parameters (docs/security.md, "Limits"): far beyond any real run, and small
# enough that no value costs seconds to plan or overflows a 64-bit column.
MAX_STEPS = 2**62  # steps, and intervals counted in steps
MAX_SEQUENCE_LENGTH = 2**20  # tokens of one sample
# The fewest tokens a supervised sample trains with: a chat template's markers around one prompt and the start of
# the reply take 10-30 tokens (Qwen's default system prompt alone about 20), and the reply needs some of its own.
# Below it every sample is truncated before its completion, and the run dies on a loss over no tokens.
MIN_SUPERVISED_LENGTH = 32
MAX_BATCH = 2**20  # samples per step, or per forward pass
MAX_GPUS = 2**14
MAX_ROLLOUTS = 2**12  # responses sampled per prompt
MAX_EPOCHS = 10_000
MAX_SEED = 2**32 - 1  # what numpy and torch take as a seed


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


# Values an engine pastes into a command line (engines/verl/command.py) are checked against their own grammar:
# a module name is a dotted name; a path has no '$' (OmegaConf resolves `${...}` even in a quoted Hydra string)
# and no control characters.
_MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*")
_UNSAFE_IN_PATH = re.compile(r"[$\x00-\x1f\x7f]")


def _command_path(value: str) -> str:
    if _UNSAFE_IN_PATH.search(value):
        raise ValueError("a path may not contain '$' or control characters (newlines, tabs)")
    return value


class LoraParams(StrictModel):
    rank: int = Field(default=16, gt=0, le=1024)
    alpha: int | None = Field(default=None, gt=0, le=2**16, description="Scaling factor; defaults to 2 x rank.")
    dropout: float = Field(default=0.05, ge=0, lt=1)
    target_modules: list[str] | Literal["all-linear"] = "all-linear"

    @field_validator("target_modules")
    @classmethod
    def _module_names(cls, value: list[str] | str) -> list[str] | str:
        if isinstance(value, str):
            return value
        if not value:
            raise ValueError("name at least one module, or 'all-linear'")
        if len(value) > 256:
            raise ValueError("at most 256 modules")
        for name in value:
            if len(name) > 256 or not _MODULE_NAME.fullmatch(name):
                raise ValueError(f"{name!r} is not a module name (e.g. q_proj, or model.layers.0.mlp.up_proj)")
        return value

    @property
    def effective_alpha(self) -> int:
        return self.alpha if self.alpha is not None else 2 * self.rank


class TrainingParams(StrictModel):
    learning_rate: float = Field(gt=0, le=1)
    batch_size: int = Field(gt=0, le=MAX_BATCH)
    micro_batch_size: int = Field(gt=0, le=MAX_BATCH)
    num_epochs: float | None = Field(default=None, gt=0, le=MAX_EPOCHS)
    max_steps: int | None = Field(default=None, gt=0, le=MAX_STEPS)
    warmup_ratio: float = Field(default=0.0, ge=0, lt=1)
    lr_scheduler: Literal["constant", "linear", "cosine"] = "cosine"
    weight_decay: float = Field(default=0.0, ge=0, le=100)
    max_grad_norm: float = Field(default=1.0, gt=0, le=1e6)
    seed: int = Field(default=42, ge=0, le=MAX_SEED)
    num_gpus: int = Field(default=1, gt=0, le=MAX_GPUS)
    precision: Literal["auto", "bf16", "fp16", "fp32"] = "auto"
    gradient_checkpointing: bool = False
    zero_stage: int | None = Field(
        default=None,
        ge=0,
        le=3,
        description="How model states are sharded over the job's devices: 0 replicated (DDP), 1 optimizer states, "
        "2 gradients and optimizer states, 3 everything (FSDP FULL_SHARD / ZeRO-3); unset: the engine's default.",
    )
    cpu_offload: Literal["none", "optimizer", "all"] = Field(
        default="none",
        description="Keep optimizer states ('optimizer'), or them and the weights ('all'), in CPU memory between "
        "uses: slower steps, much less GPU memory (verl's FSDP offload).",
    )
    lora: LoraParams | None = None
    save_interval: int | None = Field(default=None, gt=0, le=MAX_STEPS, description="Save a checkpoint every N steps.")
    eval_interval: int | None = Field(
        default=None, gt=0, le=MAX_STEPS, description="Evaluate every N steps (needs an eval dataset)."
    )
    save_total_limit: int | None = Field(default=3, gt=0, le=10_000, description="Checkpoints to keep.")

    @model_validator(mode="after")
    def _one_length(self):
        if self.num_epochs is not None and self.max_steps is not None:
            raise ValueError("set either num_epochs or max_steps, not both")
        if self.num_epochs is None and self.max_steps is None:
            self.num_epochs = 1.0
        return self

    @model_validator(mode="after")
    def _divisible_batches(self):
        samples = self.samples_per_step
        per_pass = self.micro_batch_size * self.num_gpus
        if samples % per_pass:
            raise ValueError(
                f"{self.samples_description} ({samples}) must be a multiple of "
                f"micro_batch_size x num_gpus ({self.micro_batch_size} x {self.num_gpus} = {per_pass})"
            )
        return self

    @property
    def samples_per_step(self) -> int:
        return self.batch_size

    samples_description: ClassVar[str] = "batch_size"

    @property
    def gradient_accumulation_steps(self) -> int:
        return self.samples_per_step // (self.micro_batch_size * self.num_gpus)


class SupervisedParams(TrainingParams):
    max_length: int = Field(
        default=2048,
        ge=MIN_SUPERVISED_LENGTH,
        le=MAX_SEQUENCE_LENGTH,
        description="Longest tokenized sample; longer ones are truncated.",
    )

    @field_validator("max_length", mode="before")
    @classmethod
    def _holds_a_completion(cls, value: object) -> object:
        # Before `ge`, so that the refusal says why rather than only the bound.
        if isinstance(value, int) and not isinstance(value, bool) and value < MIN_SUPERVISED_LENGTH:
            raise PydanticCustomError(
                "sequence_too_short",
                "{max_length} tokens cannot hold a prompt in the model's chat template and a completion to learn "
                "from (the template's markers alone take 10-30 tokens): give at least {minimum}",
                {"max_length": value, "minimum": MIN_SUPERVISED_LENGTH},
            )
        return value


class SFTParams(SupervisedParams):
    algorithm: Literal["sft"] = "sft"
    learning_rate: float = Field(default=2e-5, gt=0, le=1)
    batch_size: int = Field(default=16, gt=0, le=MAX_BATCH)
    micro_batch_size: int = Field(default=4, gt=0, le=MAX_BATCH)
    train_on: LossTurns = Field(
        default="all_assistant",
        description="Which assistant turns of a conversation carry the loss: every one, or only the last.",
    )
    packing: bool | None = Field(
        default=None,
        description="Pack samples into sequences of about micro_batch_size samples' tokens, each sample attending "
        "only to itself, instead of padding every micro-batch to its longest sample. Unset: packed where the engine "
        "packs exactly; false: padded.",
    )


class DPOParams(SupervisedParams):
    algorithm: Literal["dpo"] = "dpo"
    learning_rate: float = Field(default=2e-6, gt=0, le=1)
    batch_size: int = Field(default=32, gt=0, le=MAX_BATCH)
    micro_batch_size: int = Field(default=2, gt=0, le=MAX_BATCH)
    beta: float = Field(
        default=0.1, gt=0, le=1000, description="DPO temperature: how far the policy may move from the reference."
    )


class RLParams(TrainingParams):
    rollout_n: int = Field(default=8, gt=0, le=MAX_ROLLOUTS, description="Responses sampled per prompt.")
    kl_coef: float = Field(
        default=0.04, ge=0, le=1000, description="KL penalty against the reference model; 0 disables it."
    )
    clip_ratio: float = Field(default=0.2, gt=0, lt=1)
    clip_ratio_high: float | None = Field(default=None, gt=0, lt=1, description="Upper clip (DAPO's clip-higher).")
    ppo_epochs: int = Field(default=1, gt=0, le=1000, description="Policy updates per batch of rollouts.")
    max_prompt_length: int = Field(default=512, gt=0, le=MAX_SEQUENCE_LENGTH)
    max_response_length: int = Field(default=512, gt=0, le=MAX_SEQUENCE_LENGTH)
    temperature: float = Field(default=1.0, gt=0, le=100)
    top_p: float = Field(default=1.0, gt=0, le=1)

    @property
    def samples_per_step(self) -> int:
        return self.batch_size * self.rollout_n

    samples_description: ClassVar[str] = "batch_size x rollout_n"


class RuleRewardParams(RLParams):
    rollout_n: int = Field(
        default=8, ge=2, le=MAX_ROLLOUTS, description="Responses sampled per prompt (a group needs at least 2)."
    )
    rewards: list[RewardSpec] = Field(default_factory=lambda: [RewardSpec()], min_length=1, max_length=64)


class GRPOParams(RuleRewardParams):
    algorithm: Literal["grpo"] = "grpo"
    learning_rate: float = Field(default=1e-6, gt=0, le=1)
    batch_size: int = Field(default=128, gt=0, le=MAX_BATCH)
    micro_batch_size: int = Field(default=8, gt=0, le=MAX_BATCH)


class GSPOParams(RuleRewardParams):
    """GRPO with sequence-level importance ratios (Zheng et al. 2025), hence its much smaller clip range."""

    algorithm: Literal["gspo"] = "gspo"
    learning_rate: float = Field(default=1e-6, gt=0, le=1)
    batch_size: int = Field(default=128, gt=0, le=MAX_BATCH)
    micro_batch_size: int = Field(default=8, gt=0, le=MAX_BATCH)
    clip_ratio: float = Field(default=3e-4, gt=0, lt=1)
    clip_ratio_high: float | None = Field(default=4e-4, gt=0, lt=1)


class PPOParams(RLParams):
    algorithm: Literal["ppo"] = "ppo"
    learning_rate: float = Field(default=1e-6, gt=0, le=1)
    batch_size: int = Field(default=128, gt=0, le=MAX_BATCH)
    micro_batch_size: int = Field(default=8, gt=0, le=MAX_BATCH)
    rollout_n: int = Field(default=4, gt=0, le=MAX_ROLLOUTS)
    reward_model_path: str = Field(
        min_length=1,
        description="A trained reward model: an HF directory, or a reference as model_path takes ('model:<name>', "
        "'job:<job>').",
    )
    critic_learning_rate: float = Field(default=1e-5, gt=0, le=1)
    gamma: float = Field(default=1.0, gt=0, le=1)
    lam: float = Field(default=0.95, gt=0, le=1)

    _reward_model_path = field_validator("reward_model_path")(_command_path)


AnyParams = SFTParams | DPOParams | GRPOParams | GSPOParams | PPOParams
PARAMS_BY_ALGORITHM: dict[Algorithm, type[TrainingParams]] = {
    Algorithm.SFT: SFTParams,
    Algorithm.DPO: DPOParams,
    Algorithm.GRPO: GRPOParams,
    Algorithm.GSPO: GSPOParams,
    Algorithm.PPO: PPOParams,
}


# The algorithms that sample responses to score (rollouts), as the parameter classes say.
RL_ALGORITHMS = frozenset(
    algorithm for algorithm, params in PARAMS_BY_ALGORITHM.items() if issubclass(params, RLParams)
)


def parse_params(algorithm: Algorithm, params: dict) -> TrainingParams:
    """Validate raw parameters for `algorithm`; raises pydantic.ValidationError naming the field."""
    return PARAMS_BY_ALGORITHM[algorithm].model_validate({**params, "algorithm": algorithm.value})
