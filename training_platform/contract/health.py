"""A job's health settings: what each detector looks for (one validated model per detector, all of them in
`DiagnosticsSettings`) and which automatic actions the platform and the trainer take (`ActionSettings`).

They live in the contract because the trainer honours some of them itself (pausing on a non-finite value before
the step is saved, lowering the learning rate live), and the platform validates them when a job is created.

A job overrides any subset (`{"grad_explosion": {"ceiling": 50}}`); an unknown name or an out-of-range number is
a validation error that names the field. "Steps" below are the logged records that carry the metric.

The defaults, and where they come from. "Seed" is the table of normal ranges in docs/health.md ("Normal ranges"),
written for fine-tuning a pretrained model; "ours" is a choice made here, with its reason.

- non_finite: any NaN/Inf in a loss, grad_norm or reward key. A NaN does not heal: the weights it reaches are NaN.
- kl_explosion: kl > 1.0 (critical); kl_max > 10; kl > 10 x its median over 50 steps and > 0.1. Ours: healthy
  GRPO/PPO runs keep a mean per-token KL of about 0.001-0.1.
- reward_collapse: GRPO/GSPO reward_std < 1e-3 for 10 steps where its median over the 50 steps before was above;
  or the smoothed reward_mean 50% (and 0.05) below its best. Ours: identical rewards in a group leave its
  normalised advantages at zero; a run whose rewards were mostly alike all along (sparse rewards, as in the demo's
  GRPO) has not collapsed.
- grad_explosion: grad_norm > 100 for 5 steps. Seed: "> 100 sustained → unstable".
- grad_vanishing: grad_norm < 1e-6 for 10 steps. Seed: normal from 0.1, "approaching 0 → vanishing gradients";
  1e-6 is five decades below normal, where no weight moves any more.
- loss_plateau: SFT/DPO smoothed loss improving < 1% over 200 steps, judged after 100 steps. Ours: 200 steps
  average out step-to-step noise; a run of 200 steps or fewer (the demo's) is never judged.
- overfitting: eval_loss rising over 2 evaluations, by 1% in all, while the smoothed training loss falls. Seed:
  one rise is "watch", the second "overfitting, take the checkpoint of the best step"; ours: the 1%, since
  a flat eval loss wobbles (the demo SFT's held-out loss rose 0.02% and 0.1% at its end).
- initial_loss: SFT 0.05-5.0, DPO 0.5-0.9 (ln 2 = 0.693 while policy = reference), RL -2 to 2 (advantages are
  centred). Seed: initial loss "> 5.0 → data or model problem"; the rest ours.
- slow_step: step_time > 3 x its median over 50 steps and >= 1 s above it, save and eval steps excepted. Seed:
  periodic spikes at checkpoint saves are normal; ours: the factor, and 1 s, below which a slowdown is jitter.
- throughput_drop: tokens_per_second < 50% of its median over 50 steps for 5 steps. Ours.
- log_lines: OOM, NCCL timeout, NCCL error and segfault lines. Seed: "no NCCL timeout or OOM errors".
"""

from typing import Self

from pydantic import Field, model_validator

from training_platform.contract.params import StrictModel

# The most steps a detector remembers: bounds its memory and what one step costs, whatever the run's length.
MAX_WINDOW = 10_000
MAX_STEPS = 2**62  # consecutive-step counts and the save/eval intervals
MAX_VALUE = 1e12  # any threshold on a metric's value


class DetectorSettings(StrictModel):
    enabled: bool = True


class WindowSettings(DetectorSettings):
    """A detector comparing a value with its running median over the last `window` steps."""

    window: int = Field(default=50, ge=3, le=MAX_WINDOW, description="Steps whose median is the baseline.")
    warmup: int = Field(default=10, ge=1, le=MAX_WINDOW, description="Steps the baseline needs before it judges.")

    @model_validator(mode="after")
    def _warmup_within_window(self) -> Self:
        if self.warmup > self.window:
            raise ValueError(f"warmup ({self.warmup}) cannot exceed window ({self.window}): the baseline holds no more")
        return self


class NonFiniteSettings(DetectorSettings):
    pass


class KlExplosionSettings(WindowSettings):
    ceiling: float = Field(default=1.0, gt=0, le=MAX_VALUE, description="kl above it is critical.")
    max_ceiling: float = Field(default=10.0, gt=0, le=MAX_VALUE, description="kl_max (largest per-token KL) limit.")
    jump_factor: float = Field(default=10.0, gt=1, le=MAX_VALUE, description="kl above this x its median warns.")
    min_kl: float = Field(default=0.1, ge=0, le=MAX_VALUE, description="A jump below this KL is not an explosion.")
    warmup: int = Field(default=20, ge=1, le=MAX_WINDOW, description="Steps the baseline needs before it judges.")

    @model_validator(mode="after")
    def _min_kl_below_ceiling(self) -> Self:
        if self.min_kl >= self.ceiling:
            raise ValueError(f"min_kl ({self.min_kl}) must be below ceiling ({self.ceiling})")
        return self


class RewardCollapseSettings(DetectorSettings):
    std_floor: float = Field(default=1e-3, gt=0, le=MAX_VALUE, description="GRPO/GSPO reward_std below it is flat.")
    std_steps: int = Field(default=10, ge=1, le=MAX_STEPS, description="Flat steps in a row that make a collapse.")
    std_window: int = Field(
        default=50, ge=1, le=MAX_WINDOW, description="Steps whose median reward_std shows the rewards used to vary."
    )
    drop_fraction: float = Field(
        default=0.5, gt=0, le=1, description="Fall of the smoothed reward_mean, as a fraction of its best, that warns."
    )
    min_drop: float = Field(default=0.05, ge=0, le=MAX_VALUE, description="A smaller absolute fall never warns.")
    smoothing: float = Field(default=0.1, gt=0, le=1, description="EMA weight of the newest reward_mean.")
    warmup: int = Field(default=20, ge=1, le=MAX_STEPS, description="Steps before the best reward is tracked.")


class GradExplosionSettings(DetectorSettings):
    ceiling: float = Field(default=100.0, gt=0, le=MAX_VALUE)
    steps: int = Field(default=5, ge=1, le=MAX_STEPS, description="Steps in a row above the ceiling.")


class GradVanishingSettings(DetectorSettings):
    floor: float = Field(default=1e-6, gt=0, le=MAX_VALUE)
    steps: int = Field(default=10, ge=1, le=MAX_STEPS, description="Steps in a row below the floor.")


class LossPlateauSettings(DetectorSettings):
    window: int = Field(default=200, ge=2, le=MAX_WINDOW, description="Steps over which the loss must improve.")
    min_improvement: float = Field(
        default=0.01, gt=0, lt=1, description="Relative improvement of the smoothed loss over the window."
    )
    smoothing: float = Field(default=0.05, gt=0, le=1, description="EMA weight of the newest loss.")
    warmup: int = Field(default=100, ge=0, le=MAX_STEPS, description="Steps before the first judgement.")


class OverfittingSettings(DetectorSettings):
    rises: int = Field(default=2, ge=1, le=1000, description="Evaluations in a row whose eval_loss rose.")
    min_rise: float = Field(
        default=0.01, ge=0, le=MAX_VALUE, description="Relative rise of eval_loss over them, at least."
    )
    smoothing: float = Field(default=0.1, gt=0, le=1, description="EMA weight of the newest training loss.")


class LossRange(StrictModel):
    low: float = Field(ge=-MAX_VALUE, le=MAX_VALUE)
    high: float = Field(ge=-MAX_VALUE, le=MAX_VALUE)

    @model_validator(mode="after")
    def _low_below_high(self) -> Self:
        if self.low >= self.high:
            raise ValueError(f"low ({self.low}) must be below high ({self.high})")
        return self


class InitialLossSettings(DetectorSettings):
    sft: LossRange = Field(default=LossRange(low=0.05, high=5.0), description="A pretrained model starts at 1.5-3.")
    dpo: LossRange = Field(default=LossRange(low=0.5, high=0.9), description="Policy = reference starts at ln 2.")
    rl: LossRange = Field(default=LossRange(low=-2.0, high=2.0), description="GRPO, GSPO, PPO: the policy loss ~ 0.")
    within_steps: int = Field(
        default=10, ge=1, le=MAX_STEPS, description="Only a loss logged by this step is an initial loss (not a resume)."
    )


class SlowStepSettings(WindowSettings):
    factor: float = Field(default=3.0, gt=1, le=MAX_VALUE, description="step_time above this x its median is slow.")
    min_excess_seconds: float = Field(
        default=1.0, ge=0, le=MAX_VALUE, description="A step less than this much slower than the median is not slow."
    )
    save_steps: int | None = Field(
        default=None, gt=0, le=MAX_STEPS, description="Checkpoint interval: those steps may be slow."
    )
    eval_steps: int | None = Field(default=None, gt=0, le=MAX_STEPS, description="Eval interval: those steps too.")


class ThroughputDropSettings(WindowSettings):
    fraction: float = Field(default=0.5, gt=0, lt=1, description="tokens_per_second below this x its median drops.")
    steps: int = Field(default=5, ge=1, le=MAX_STEPS, description="Steps in a row below it.")


class LogLinesSettings(DetectorSettings):
    pass


class DiagnosticsSettings(StrictModel):
    non_finite: NonFiniteSettings = NonFiniteSettings()
    kl_explosion: KlExplosionSettings = KlExplosionSettings()
    reward_collapse: RewardCollapseSettings = RewardCollapseSettings()
    grad_explosion: GradExplosionSettings = GradExplosionSettings()
    grad_vanishing: GradVanishingSettings = GradVanishingSettings()
    loss_plateau: LossPlateauSettings = LossPlateauSettings()
    overfitting: OverfittingSettings = OverfittingSettings()
    initial_loss: InitialLossSettings = InitialLossSettings()
    slow_step: SlowStepSettings = SlowStepSettings()
    throughput_drop: ThroughputDropSettings = ThroughputDropSettings()
    log_lines: LogLinesSettings = LogLinesSettings()

    @model_validator(mode="after")
    def _vanishing_below_explosion(self) -> Self:
        if self.grad_vanishing.floor >= self.grad_explosion.ceiling:
            raise ValueError(
                f"grad_vanishing.floor ({self.grad_vanishing.floor}) must be below "
                f"grad_explosion.ceiling ({self.grad_explosion.ceiling})"
            )
        return self


class ActionSettings(StrictModel):
    """Automatic actions, each opt-in (docs/health.md says who takes each, and when)."""

    pause_on_non_finite: bool = Field(
        default=False,
        description="Pause when a loss, grad_norm or reward is NaN/Inf, before that step is checkpointed (TRL: the "
        "trainer itself stops without saving; verl: the platform requests a pause).",
    )
    lower_lr_on_grad_explosion: bool = Field(
        default=False, description="Multiply the learning rate by lr_factor when gradients explode (TRL: live)."
    )
    lr_factor: float = Field(default=0.5, gt=0, lt=1, description="The factor lower_lr_on_grad_explosion applies.")
    save_on_best: bool = Field(
        default=False,
        description="Save a checkpoint, kept out of rotation, at each new best eval_loss (TRL; needs an eval set).",
    )
    stop_on_overfitting: bool = Field(default=False, description="Stop the job once overfitting is confirmed.")


class HealthSettings(StrictModel):
    """A job's `health` field: detector overrides and automatic actions."""

    detectors: DiagnosticsSettings = DiagnosticsSettings()
    actions: ActionSettings = ActionSettings()
    layer_grad_norms_every: int = Field(
        default=10,
        ge=0,
        le=1_000_000,
        description="Per-layer gradient norms (the gradient heatmap) every this many steps; 0 turns them off.",
    )
