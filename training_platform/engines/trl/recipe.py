"""A TRL training run, top to bottom: config → model and data → trainer → train → report.

Run by the platform as `python -m training_platform.engines.trl --config RUN_CONFIG.json`. It resumes by
itself from the latest complete checkpoint in the job's directory, so "resume" is simply a second launch.
"""

import logging
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
from peft import LoraConfig
from transformers import AutoModelForCausalLM, AutoTokenizer
from trl import DPOConfig, DPOTrainer, GRPOConfig, GRPOTrainer, SFTConfig, SFTTrainer

from training_platform.datasets.table import read_mapped_rows
from training_platform.engines.base import latest_complete
from training_platform.engines.trl.callback import PlatformCallback
from training_platform.engines.trl.checkpoints import list_checkpoints, mark_complete
from training_platform.engines.trl.data import completion_text, to_trl_dataset
from training_platform.engines.trl.run_config import RunConfig
from training_platform.jobs.params import Algorithm, RuleRewardParams, TrainingParams
from training_platform.metrics.status import TrainingState
from training_platform.rewards import RewardSpec, build_reward_function

log = logging.getLogger("training_platform.trl")


def main(config_path: Path) -> int:
    config = RunConfig.load(config_path)
    params = config.training_params()
    layout = config.layout
    if config.cpu_threads:
        torch.set_num_threads(config.cpu_threads)

    device = _device()
    callback = PlatformCallback(layout, gpu_memory_reader=_gpu_memory_reader(device))
    try:
        tokenizer = _load_tokenizer(config.model_path)
        chat = tokenizer.chat_template is not None
        train_rows = read_mapped_rows(config.dataset_paths, config.dataset_fields)
        eval_paths = [config.eval_dataset_path] if config.eval_dataset_path else []
        eval_rows = read_mapped_rows(eval_paths, config.dataset_fields) or None
        if isinstance(params, RuleRewardParams):
            train_rows = _drop_long_prompts(train_rows, tokenizer, params.max_prompt_length, chat)
        train_set = to_trl_dataset(train_rows, config.algorithm, chat)
        eval_set = to_trl_dataset(eval_rows, config.algorithm, chat) if eval_rows else None

        trainer = _build_trainer(config, params, device, tokenizer, train_set, eval_set)
        trainer.add_callback(callback)
        resume_from = latest_complete(list_checkpoints(layout))
        if resume_from is not None:
            log.info("resuming from %s (step %s)", resume_from.path, resume_from.step)
        trainer.train(resume_from_checkpoint=str(resume_from.path) if resume_from else None)

        if callback.pause_requested:
            callback.finish(TrainingState.PAUSED, f"paused at step {trainer.state.global_step}")
            return 0
        _export_final_model(trainer, layout.final_model_dir)
        callback.finish(TrainingState.COMPLETED, f"completed {trainer.state.global_step} steps")
        return 0
    except BaseException as error:
        callback.finish(TrainingState.FAILED, f"{type(error).__name__}: {error}")
        raise


def _device() -> str:
    if torch.cuda.is_available():
        return "cuda"
    if torch.backends.mps.is_available():
        return "mps"
    return "cpu"


def _gpu_memory_reader(device: str) -> Callable[[], float] | None:
    if device != "cuda":
        return None
    return lambda: torch.cuda.max_memory_allocated() / 2**30


def _precision(params: TrainingParams, device: str) -> dict[str, bool]:
    choice = params.precision
    if choice == "auto":
        # CPU and MPS train fastest and safest in fp32 here (research: bf16 halves CPU speed).
        if device == "cuda":
            choice = "bf16" if torch.cuda.is_bf16_supported() else "fp16"
        else:
            choice = "fp32"
    return {"bf16": choice == "bf16", "fp16": choice == "fp16"}


def _load_tokenizer(model_path: str):
    tokenizer = AutoTokenizer.from_pretrained(model_path)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def _drop_long_prompts(rows: list[dict], tokenizer, max_tokens: int, chat: bool) -> list[dict]:
    """Like verl's filter_overlong_prompts: a prompt that does not fit is skipped, not silently cut."""

    def length(prompt: Any) -> int:
        if chat or isinstance(prompt, list):
            messages = prompt if isinstance(prompt, list) else [{"role": "user", "content": prompt}]
            return len(tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True))
        return len(tokenizer(prompt).input_ids)

    kept = [row for row in rows if length(row["prompt"]) <= max_tokens]
    if len(kept) < len(rows):
        log.warning("skipped %d prompts longer than max_prompt_length=%d tokens", len(rows) - len(kept), max_tokens)
    if not kept:
        raise ValueError(f"every prompt is longer than max_prompt_length={max_tokens} tokens")
    return kept


def _common_args(config: RunConfig, params: TrainingParams, device: str, has_eval: bool) -> dict[str, Any]:
    length = {"max_steps": params.max_steps} if params.max_steps else {"num_train_epochs": params.num_epochs}
    evaluate = has_eval and params.eval_interval is not None
    return dict(
        output_dir=str(config.layout.checkpoints_dir),
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
        **_precision(params, device),
    )


def _lora(params: TrainingParams) -> LoraConfig | None:
    if params.lora is None:
        return None
    return LoraConfig(
        r=params.lora.rank,
        lora_alpha=params.lora.effective_alpha,
        lora_dropout=params.lora.dropout,
        target_modules=params.lora.target_modules,
        task_type="CAUSAL_LM",
    )


def _build_trainer(config: RunConfig, params: TrainingParams, device, tokenizer, train_set, eval_set):
    common = _common_args(config, params, device, eval_set is not None)
    shared = dict(processing_class=tokenizer, train_dataset=train_set, eval_dataset=eval_set, peft_config=_lora(params))
    if config.algorithm == Algorithm.SFT:
        model = AutoModelForCausalLM.from_pretrained(config.model_path)
        return SFTTrainer(model=model, args=SFTConfig(**common, max_length=params.max_length), **shared)
    if config.algorithm == Algorithm.DPO:
        args = DPOConfig(**common, max_length=params.max_length, beta=params.beta)
        # From the path, so TRL builds the frozen reference model from the same weights.
        return DPOTrainer(model=config.model_path, args=args, **shared)
    args = GRPOConfig(**common, **_rl_args(config.algorithm, params))
    model = AutoModelForCausalLM.from_pretrained(config.model_path)
    return GRPOTrainer(model=model, reward_funcs=trl_reward_functions(params.rewards), args=args, **shared)


def _rl_args(algorithm: Algorithm, params: RuleRewardParams) -> dict[str, Any]:
    args: dict[str, Any] = dict(
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
        args.update(importance_sampling_level="sequence", loss_type="grpo")
    return args


def trl_reward_functions(specs: list[RewardSpec]) -> list[Callable]:
    """The platform's rule rewards in TRL's calling convention; names become `rewards/<name>/mean` metrics."""
    functions = []
    for index, spec in enumerate(specs):
        function = _trl_reward(spec)
        if any(f.__name__ == function.__name__ for f in functions):
            function.__name__ = f"{function.__name__}_{index}"
        functions.append(function)
    return functions


def _trl_reward(spec: RewardSpec) -> Callable:
    score_batch = build_reward_function(spec)

    def reward(prompts=None, completions=(), **kwargs):
        count = len(completions)
        # TRL passes every dataset column as a list aligned with the completions, next to its own objects.
        columns = {key: value for key, value in kwargs.items() if isinstance(value, list) and len(value) == count}
        rows = [{key: values[i] for key, values in columns.items()} for i in range(count)]
        return score_batch([completion_text(c) for c in completions], rows)

    reward.__name__ = spec.name
    return reward


def _export_final_model(trainer, final_dir: Path) -> None:
    """Save the trained model (or LoRA adapter) with its tokenizer; appears only once complete."""
    staging = final_dir.with_name(final_dir.name + ".partial")
    trainer.save_model(str(staging))
    if final_dir.exists():
        shutil.rmtree(final_dir)
    staging.rename(final_dir)
    mark_complete(final_dir)
