"""A run → the keyword arguments of TRL's trainer configs (SFTConfig, DPOConfig, GRPOConfig) and of peft's
LoraConfig. Imports neither torch nor TRL: the platform shows these arguments (the configurator) as well as the
training process using them."""

from typing import Any

from training_platform.contract.params import Algorithm, RuleRewardParams, TrainingParams
from training_platform.contract.run import RunSpec


def trainer_arguments(spec: RunSpec, device: str, bf16_supported: bool = True) -> dict[str, Any]:
    """The trainer config's arguments for the run on `device` ("cuda", "mps", "cpu")."""
    params = spec.params
    arguments = _common(spec, params, device, bf16_supported)
    if spec.algorithm == Algorithm.SFT:
        arguments["max_length"] = params.max_length
    elif spec.algorithm == Algorithm.DPO:
        arguments.update(max_length=params.max_length, beta=params.beta)
    else:
        arguments.update(_rl(spec.algorithm, params))
    return arguments


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
        gradient_checkpointing=params.gradient_checkpointing,
        logging_steps=1,
        save_strategy="steps" if params.save_interval else "no",
        save_steps=params.save_interval or 500,
        save_total_limit=params.save_total_limit,
        eval_strategy="steps" if evaluate else "no",
        eval_steps=params.eval_interval if evaluate else None,
        report_to="none",
        disable_tqdm=True,
        use_cpu=device == "cpu",
        dataloader_num_workers=0,
        **length,
        **_precision(params, device, bf16_supported),
    )


def _precision(params: TrainingParams, device: str, bf16_supported: bool) -> dict[str, bool]:
    choice = params.precision
    if choice == "auto":
        # CPU and MPS train fastest and safest in fp32 here (bf16 halves the speed on a CPU).
        if device == "cuda":
            choice = "bf16" if bf16_supported else "fp16"
        else:
            choice = "fp32"
    return {"bf16": choice == "bf16", "fp16": choice == "fp16"}


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
