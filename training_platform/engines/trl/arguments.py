"""A run → the keyword arguments of TRL's trainer configs (SFTConfig, DPOConfig, GRPOConfig) and of peft's
LoraConfig, and the precision it trains in. Imports neither torch nor TRL: the platform shows these arguments
(the configurator) as well as the training process using them.

Precision policy, the same for every algorithm (SFT, DPO, GRPO, GSPO): the weights are loaded in one dtype and
the trainer computes under at most one autocast.

| precision | device           | weights loaded in | trainer's autocast |
|-----------|------------------|-------------------|--------------------|
| auto      | CUDA with bf16   | bfloat16          | bf16               |
| auto      | CUDA without bf16| float32           | fp16               |
| auto      | CPU, MPS         | float32           | none               |
| bf16      | any              | bfloat16          | bf16               |
| fp16      | any              | float32           | fp16               |
| fp32      | any              | float32           | none               |

fp16 keeps float32 weights: AdamW's updates underflow in float16 weights, so fp16 is an autocast over float32
master weights (with the loss scaling the trainer adds for it). The frozen reference model (DPO; GRPO and GSPO
when kl_coef > 0) is held in the policy's dtype: the recipe loads both itself, rather than letting TRL load
from a path, which it does in float32 whatever the checkpoint holds.
"""

from dataclasses import dataclass
from typing import Any, Literal

from training_platform.contract.params import Algorithm, RuleRewardParams, TrainingParams
from training_platform.contract.run import RunSpec


def trainer_arguments(
    spec: RunSpec, device: str, bf16_supported: bool = True, with_settings: bool = True, packed: bool | None = None
) -> dict[str, Any]:
    """The trainer config's arguments for the run on `device` ("cuda", "mps", "cpu"): the platform's, then the job's
    engine settings (settings.py refuses any that would replace one of the platform's). SFT samples are packed
    as the job asks (`packed` overrides it: the training process falls back to padding where packing is not exact)."""
    params = spec.params
    arguments = _common(spec, params, device, bf16_supported)
    if spec.algorithm == Algorithm.SFT:
        arguments["max_length"] = params.max_length
        arguments.update(_packing(params.packing is not False if packed is None else packed))
    elif spec.algorithm == Algorithm.DPO:
        arguments.update(max_length=params.max_length, beta=params.beta)
    else:
        arguments.update(_rl(spec.algorithm, params))
    return {**arguments, **spec.engine_settings} if with_settings else arguments


def _common(spec: RunSpec, params: TrainingParams, device: str, bf16_supported: bool) -> dict[str, Any]:
    length = {"max_steps": params.max_steps} if params.max_steps else {"num_train_epochs": params.num_epochs}
    evaluate = spec.eval_dataset_path is not None and params.eval_interval is not None
    return dict(
        output_dir=str(spec.layout.checkpoints_dir),
        learning_rate=params.learning_rate,
        per_device_train_batch_size=params.micro_batch_size,
        per_device_eval_batch_size=params.micro_batch_size,
        gradient_accumulation_steps=params.gradient_accumulation_steps,
        warmup_steps=params.warmup_ratio,  # transformers 5 reads a float below 1 as a ratio
        lr_scheduler_type=params.lr_scheduler,
        weight_decay=params.weight_decay,
        max_grad_norm=params.max_grad_norm,
        seed=params.seed,
        # Under FSDP the layers are checkpointed by FSDP itself (the accelerate config): the trainer's own
        # checkpointing would gather every sharded layer a second time in the backward pass.
        gradient_checkpointing=params.gradient_checkpointing and fsdp_sharding(params) is None,
        logging_steps=1,
        # transformers logs a NaN/Inf step's loss as the average of the steps before it: the platform's diagnostics
        # and pause_on_non_finite need to see it as it is.
        logging_nan_inf_filter=False,
        save_strategy="steps" if params.save_interval else "no",
        save_steps=params.save_interval or 500,
        save_total_limit=params.save_total_limit,
        eval_strategy="steps" if evaluate else "no",
        eval_steps=params.eval_interval if evaluate else None,
        # save_on_best (callback.py saves at each new best): transformers keeps the best checkpoint out of rotation.
        **(
            {"metric_for_best_model": "eval_loss", "greater_is_better": False}
            if evaluate and spec.health.actions.save_on_best
            else {}
        ),
        report_to="none",
        disable_tqdm=True,
        use_cpu=device == "cpu",
        dataloader_num_workers=0,
        **length,
        **precision_policy(params.precision, device, bf16_supported).trainer_flags,
    )


def _packing(packed: bool) -> dict[str, Any]:
    """TRL's packing fields, set either way so that no engine setting changes them behind params.packing: packed,
    a micro-batch is one pack of about micro_batch_size samples' tokens (engines/trl/packing.py), padding-free; the
    'wrapped' strategy would cut samples and let them attend to each other."""
    if not packed:
        return dict(packing=False, packing_strategy="bfd", padding_free=False)
    return dict(
        packing=True,
        packing_strategy="bfd",
        padding_free=True,
        per_device_train_batch_size=1,
        per_device_eval_batch_size=1,
    )


# ZeRO stage → FSDP's sharding strategy; stage 0 is DDP (replicated), and FSDP has no optimizer-only stage 1.
FSDP_SHARDING = {2: "SHARD_GRAD_OP", 3: "FULL_SHARD"}


def fsdp_sharding(params: TrainingParams) -> str | None:
    """The FSDP sharding strategy a run's processes use, or None for DDP (the default) or a single process."""
    return FSDP_SHARDING.get(params.zero_stage) if params.num_gpus > 1 else None


@dataclass(frozen=True)
class Precision:
    weights_dtype: Literal["bfloat16", "float32"]  # torch dtype the policy and the reference are loaded in
    autocast: Literal["bf16", "fp16", "no"]  # the trainer's mixed precision (its bf16/fp16 flags)

    @property
    def trainer_flags(self) -> dict[str, bool]:
        return {"bf16": self.autocast == "bf16", "fp16": self.autocast == "fp16"}


def precision_policy(precision: str, device: str, bf16_supported: bool) -> Precision:
    """How a run with `precision` ("auto", "bf16", "fp16", "fp32") trains on `device` (the table above)."""
    if precision == "auto":
        # CPU and MPS train fastest and safest in fp32 here (bf16 halves the speed on a CPU).
        if device != "cuda":
            precision = "fp32"
        else:
            precision = "bf16" if bf16_supported else "fp16"
    if precision == "bf16":
        return Precision("bfloat16", "bf16")
    return Precision("float32", "fp16" if precision == "fp16" else "no")


def _rl(algorithm: Algorithm, params: RuleRewardParams) -> dict[str, Any]:
    arguments: dict[str, Any] = dict(
        num_generations=params.rollout_n,
        max_completion_length=params.max_response_length,
        beta=params.kl_coef,
        epsilon=params.clip_ratio,
        epsilon_high=params.clip_ratio_high or params.clip_ratio,
        num_iterations=params.ppo_epochs,
        temperature=params.temperature,
        top_p=params.top_p,
        reward_weights=[spec.weight for spec in params.rewards],
    )
    if algorithm == Algorithm.GSPO:
        # TRL sums per token for the other loss types when ratios are sequence-level (its own warning).
        arguments.update(importance_sampling_level="sequence", loss_type="grpo")
    return arguments


def lora_arguments(params: TrainingParams) -> dict[str, Any] | None:
    if params.lora is None:
        return None
    return dict(
        r=params.lora.rank,
        lora_alpha=params.lora.effective_alpha,
        lora_dropout=params.lora.dropout,
        target_modules=params.lora.target_modules,
        task_type="CAUSAL_LM",
    )
