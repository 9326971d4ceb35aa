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

from training_platform.contract.params import Algorithm, RuleRewardParams
from training_platform.contract.run import RunSpec
from training_platform.contract.status import TrainingState
from training_platform.datafiles.table import read_mapped_rows
from training_platform.engines.base import latest_complete
from training_platform.engines.trl.arguments import lora_arguments, trainer_arguments
from training_platform.engines.trl.callback import PlatformCallback
from training_platform.engines.trl.checkpoints import list_checkpoints, mark_complete
from training_platform.engines.trl.data import completion_text, to_trl_dataset
from training_platform.rewards import RewardSpec, build_reward_function

log = logging.getLogger("training_platform.trl")
# Each algorithm's trainer and config. DPO gets the model as a path, so TRL builds the frozen reference model
# from the same weights; the others get it loaded.
TRAINERS = {
    Algorithm.SFT: (SFTTrainer, SFTConfig),
    Algorithm.DPO: (DPOTrainer, DPOConfig),
    Algorithm.GRPO: (GRPOTrainer, GRPOConfig),
    Algorithm.GSPO: (GRPOTrainer, GRPOConfig),
}


def main(config_path: Path, reward_code_dir: Path | None = None) -> int:
    spec = RunSpec.load(config_path)
    params, layout = spec.params, spec.layout
    if spec.cpu_threads:
        torch.set_num_threads(spec.cpu_threads)

    device = _device()
    callback = PlatformCallback(layout, gpu_memory_reader=_gpu_memory_reader(device))
    try:
        tokenizer = _load_tokenizer(spec.model_path)
        chat = tokenizer.chat_template is not None
        train_rows = read_mapped_rows(spec.dataset_paths, spec.dataset_fields)
        eval_paths = [spec.eval_dataset_path] if spec.eval_dataset_path else []
        eval_rows = read_mapped_rows(eval_paths, spec.dataset_fields) or None
        if isinstance(params, RuleRewardParams):
            train_rows = _drop_long_prompts(train_rows, tokenizer, params.max_prompt_length, chat)
        train_set = to_trl_dataset(train_rows, spec.algorithm, chat)
        eval_set = to_trl_dataset(eval_rows, spec.algorithm, chat) if eval_rows else None

        trainer = _build_trainer(spec, device, tokenizer, train_set, eval_set, reward_code_dir)
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


def _build_trainer(spec: RunSpec, device: str, tokenizer, train_set, eval_set, reward_code_dir: Path | None = None):
    trainer_class, config_class = TRAINERS[spec.algorithm]
    bf16_supported = device == "cuda" and torch.cuda.is_bf16_supported()
    args = config_class(**trainer_arguments(spec, device, bf16_supported))
    lora = lora_arguments(spec.params)
    shared = dict(
        processing_class=tokenizer,
        train_dataset=train_set,
        eval_dataset=eval_set,
        peft_config=LoraConfig(**lora) if lora else None,
    )
    if spec.algorithm == Algorithm.DPO:
        return trainer_class(model=spec.model_path, args=args, **shared)
    model = AutoModelForCausalLM.from_pretrained(spec.model_path)
    if isinstance(spec.params, RuleRewardParams):
        shared["reward_funcs"] = trl_reward_functions(spec.params.rewards, reward_code_dir)
    return trainer_class(model=model, args=args, **shared)


def trl_reward_functions(specs: list[RewardSpec], code_dir: Path | None = None) -> list[Callable]:
    """The platform's rule rewards in TRL's calling convention; names become `rewards/<name>/mean` metrics.
    Custom functions are imported from `code_dir`, the server's reward code directory."""
    functions = []
    for index, spec in enumerate(specs):
        function = _trl_reward(spec, code_dir)
        if any(f.__name__ == function.__name__ for f in functions):
            function.__name__ = f"{function.__name__}_{index}"
        functions.append(function)
    return functions


def _trl_reward(spec: RewardSpec, code_dir: Path | None) -> Callable:
    score_batch = build_reward_function(spec, code_dir)

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
