"""A TRL training run, top to bottom: config → model and data → trainer → train → report.

Run by the platform as `python -m training_platform.engines.trl --config RUN_CONFIG.json`, once per device
when the job has several (engines/trl/engine.py starts them through accelerate). It resumes by itself from the
latest complete checkpoint in the job's directory, so "resume" is simply a second launch. With several
processes the first (rank 0) writes the job's files: metrics, status, checkpoint markers and the final model.
"""

import functools
import importlib.util
import json
import logging
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
from datasets import Dataset
from peft import LoraConfig
from torch import serialization
from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer, PreTrainedTokenizerBase
from trl import DPOConfig, DPOTrainer, GRPOConfig, GRPOTrainer, SFTConfig

from training_platform.common.files import write_json_atomic
from training_platform.common.text import Text
from training_platform.contract.params import Algorithm, RuleRewardParams, SFTParams
from training_platform.contract.run import RunSpec
from training_platform.contract.status import TrainingState
from training_platform.datafiles.rows import read_rows
from training_platform.engines.base import latest_complete
from training_platform.engines.trl.acceleration import accelerations, attention
from training_platform.engines.trl.arguments import (
    fsdp_sharding,
    lora_arguments,
    precision_policy,
    trainer_arguments,
)
from training_platform.engines.trl.callback import CompletionsCallback, PlatformCallback
from training_platform.engines.trl.checkpoints import list_checkpoints, mark_complete
from training_platform.engines.trl.completions import RolloutRecorder, completions_path
from training_platform.engines.trl.data import completion_text, to_trl_dataset
from training_platform.engines.trl.lm_head import add_compact_lm_head, compact_head_applies, has_triton_kernel
from training_platform.engines.trl.packing import PlatformSFTTrainer, mixes_samples
from training_platform.rewards import RewardSpec, build_reward_function

log = logging.getLogger("training_platform.trl")
TRAINERS = {
    Algorithm.SFT: (PlatformSFTTrainer, SFTConfig),
    Algorithm.DPO: (DPOTrainer, DPOConfig),
    Algorithm.GRPO: (GRPOTrainer, GRPOConfig),
    Algorithm.GSPO: (GRPOTrainer, GRPOConfig),
}


def main(config_path: Path, reward_code_dir: Path | None = None) -> int:
    spec = RunSpec.load(config_path)
    layout = spec.layout
    if spec.cpu_threads:
        torch.set_num_threads(spec.cpu_threads)

    device = _device(spec.params.num_gpus)
    if device == "cpu":
        _read_indexed_cpu_locations()
    main_process = _rank() == 0
    callback = PlatformCallback(
        layout, gpu_memory_reader=_gpu_memory_reader(device), main_process=main_process, health=spec.health
    )
    # What the rewards scored, for the job page's sample completions (completions.py).
    recorder = RolloutRecorder() if isinstance(spec.params, RuleRewardParams) else None
    try:
        trainer = build_trainer(spec, device, reward_code_dir, recorder)
        callback.reporter.status.notes = [note.as_dict() for note in trainer.platform_notes]
        trainer.add_callback(callback)
        if recorder is not None and main_process:
            trainer.add_callback(CompletionsCallback(recorder, completions_path(layout)))
        if main_process:  # what TRL made of the platform's arguments and the job's engine settings
            write_json_atomic(layout.resolved_config_path, json.loads(trainer.args.to_json_string()))
        resume_from = latest_complete(list_checkpoints(layout))
        if resume_from is not None:
            log.info("resuming from %s (step %s)", resume_from.path, resume_from.step)
        trainer.train(resume_from_checkpoint=str(resume_from.path) if resume_from else None)

        if callback.paused_automatically is not None:
            # The broken step was not saved, nor is a final model: resuming goes back to the newest complete
            # checkpoint, which predates it (a lower learning rate is the usual way on).
            log.warning("paused automatically: %s", callback.paused_automatically)
            saved = latest_complete(list_checkpoints(layout))
            callback.reporter.status.last_checkpoint_step = saved.step if saved else None
            callback.finish(TrainingState.PAUSED, f"paused automatically: {callback.paused_automatically}")
            return 0
        if callback.pause_requested:
            callback.finish(TrainingState.PAUSED, f"paused at step {trainer.state.global_step}")
            return 0
        _export_final_model(trainer, layout.final_model_dir, main_process)
        callback.finish(TrainingState.COMPLETED, f"completed {trainer.state.global_step} steps")
        return 0
    except BaseException as error:
        callback.finish(TrainingState.FAILED, f"{type(error).__name__}: {error}")
        raise


def _rank() -> int:
    """This process's rank among the job's processes (torch.distributed.run sets RANK); 0 when alone."""
    return int(os.environ.get("RANK", "0"))


def _device(processes: int) -> str:
    if torch.cuda.is_available():
        return "cuda"
    # Several processes without CUDA join over gloo on the CPU: there is no collective backend for MPS.
    if processes == 1 and torch.backends.mps.is_available():
        return "mps"
    return "cpu"


@functools.cache  # once per process: torch keeps a list of every registration
def _read_indexed_cpu_locations() -> None:
    """Let torch.load map storages to "cpu:N". With several CPU processes accelerate gives each the device
    cpu:0, and transformers resumes the optimizer with that device as map_location, which torch refuses
    ("don't know how to restore data location ... cpu:0")."""
    # Priority 11: after torch's own "cpu" (10), before every other device's; torch uses 10 to 26.
    serialization.register_package(11, lambda storage: None, _keep_on_cpu)


def _keep_on_cpu(storage, location: str):
    return storage if location.startswith("cpu:") else None  # torch reads storages into CPU memory first


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


def build_trainer(
    spec: RunSpec, device: str, reward_code_dir: Path | None = None, recorder: RolloutRecorder | None = None
):
    """The run's TRL trainer on `device`, its model, reference and data loaded (the precision policy applied); the
    rewards note what they score in `recorder`."""
    params = spec.params
    if device != "cuda" and fsdp_sharding(params):
        raise ValueError(
            f"zero_stage {params.zero_stage} shards the model with FSDP, which accelerate runs on GPUs only: "
            f"leave zero_stage unset (or 0) to train with {params.num_gpus} {device} processes"
        )
    tokenizer = _load_tokenizer(spec.model_path)
    chat = tokenizer.chat_template is not None
    train_rows = read_rows(spec.dataset_paths, spec.dataset_formats, spec.algorithm)
    eval_paths = [spec.eval_dataset_path] if spec.eval_dataset_path else []
    eval_rows = read_rows(eval_paths, spec.dataset_formats, spec.algorithm) or None
    if isinstance(params, RuleRewardParams):
        train_rows = _drop_long_prompts(train_rows, tokenizer, params.max_prompt_length, chat)
    train_on = params.train_on if isinstance(params, SFTParams) else "all_assistant"
    train_set = to_trl_dataset(train_rows, spec.algorithm, tokenizer, train_on)
    eval_set = to_trl_dataset(eval_rows, spec.algorithm, tokenizer, train_on) if eval_rows else None
    return _build_trainer(spec, device, tokenizer, train_set, eval_set, reward_code_dir, recorder)


def _build_trainer(
    spec: RunSpec,
    device: str,
    tokenizer: PreTrainedTokenizerBase,
    train_set: Dataset,
    eval_set: Dataset | None,
    reward_code_dir: Path | None = None,
    recorder: RolloutRecorder | None = None,
):
    """The algorithm's trainer over prepared data (the loss preview's tests build one over their own rows)."""
    params = spec.params
    trainer_class, config_class = TRAINERS[spec.algorithm]
    bf16_supported = device == "cuda" and torch.cuda.is_bf16_supported()
    weights_dtype = precision_policy(params.precision, device, bf16_supported).weights_dtype
    model_type = AutoConfig.from_pretrained(spec.model_path).model_type
    implementation, attention_note = attention(model_type, device, weights_dtype, _installed)
    attention_kwargs = {"attn_implementation": implementation} if implementation else {}
    loading = dict(dtype=getattr(torch, weights_dtype), **attention_kwargs)
    lora = lora_arguments(params)
    shared = dict(
        processing_class=tokenizer,
        train_dataset=train_set,
        eval_dataset=eval_set,
        peft_config=LoraConfig(**lora) if lora else None,
    )
    # Loaded on the CPU (no device_map): the trainer moves the models to this process's device, or shards them.
    model = AutoModelForCausalLM.from_pretrained(spec.model_path, **loading)
    notes = [attention_note]
    packed = None
    if isinstance(params, SFTParams):
        packed, note = _packing_decision(params, model, device)
        notes += [note] if note else []
        shared["samples_per_pack"] = params.micro_batch_size
    arguments = trainer_arguments(spec, device, bf16_supported, packed=packed)
    acceleration = accelerations(spec, model_type, device, _installed)
    arguments.update(acceleration.arguments)
    notes += acceleration.notes
    if spec.algorithm == Algorithm.DPO and not lora:  # with LoRA the reference is the model with its adapter off
        shared["ref_model"] = AutoModelForCausalLM.from_pretrained(spec.model_path, **loading)
    if isinstance(params, RuleRewardParams):
        shared["reward_funcs"] = trl_reward_functions(params.rewards, reward_code_dir, recorder)
        # GRPOTrainer takes no reference model: it loads one (when kl_coef > 0) from the policy's path in the
        # policy's dtype, with model_init_kwargs, which it otherwise ignores for a loaded policy (its warning
        # says so). Without device_map=None it would spread the reference over every visible GPU under FSDP.
        arguments["model_init_kwargs"] = {"device_map": None, **attention_kwargs}
    trainer = trainer_class(model=model, args=config_class(**arguments), **shared)
    if spec.algorithm == Algorithm.SFT and not has_triton_kernel(device):
        patched = trainer.model.get_base_model() if lora else trainer.model  # the model TRL gave its fused head
        if compact_head_applies(patched):
            add_compact_lm_head(patched)
    if report := getattr(trainer, "packing_report", None):
        notes.append(Text.of("trl.packed", samples=report.samples, packs=report.packs,
                             tokens=report.tokens_per_pack, mean=report.mean_sample_tokens))  # fmt: skip
    trainer.platform_notes = notes  # for the job's events (the status file's notes)
    return trainer


def _installed(package: str) -> bool:
    return importlib.util.find_spec(package) is not None


def _packing_decision(params: SFTParams, model, device: str) -> tuple[bool, Text | None]:
    """Whether the run packs its samples, and the note that says so when it does not (the job asked, or left it to
    the engine): packing is applied only where the model keeps packed samples apart."""
    if params.packing is False:
        return False, None
    if reason := mixes_samples(model, device):
        return False, Text.of("trl.packing_fallback", reason=reason)
    return True, None


def trl_reward_functions(
    specs: list[RewardSpec], code_dir: Path | None = None, recorder: RolloutRecorder | None = None
) -> list[Callable]:
    """The platform's rule rewards in TRL's calling convention; names become `rewards/<name>/mean` metrics.
    Custom functions are imported from `code_dir`, the server's reward code directory; each batch scored is noted
    in `recorder`."""
    functions = []
    for index, spec in enumerate(specs):
        function = _trl_reward(spec, code_dir, recorder)
        if any(f.__name__ == function.__name__ for f in functions):
            function.__name__ = f"{function.__name__}_{index}"
        functions.append(function)
    if recorder is not None:
        recorder.rewards = [(function.__name__, spec.weight) for function, spec in zip(functions, specs, strict=True)]
    return functions


def _trl_reward(spec: RewardSpec, code_dir: Path | None, recorder: RolloutRecorder | None = None) -> Callable:
    score_batch = build_reward_function(spec, code_dir)

    def reward(prompts=None, completions=(), **kwargs):
        count = len(completions)
        # TRL passes every dataset column as a list aligned with the completions, next to its own objects.
        columns = {key: value for key, value in kwargs.items() if isinstance(value, list) and len(value) == count}
        rows = [{key: values[i] for key, values in columns.items()} for i in range(count)]
        texts = [completion_text(c) for c in completions]
        scores = score_batch(texts, rows)
        if recorder is not None:
            recorder.record(reward.__name__, prompts or [], texts, scores)
        return scores

    reward.__name__ = spec.name
    return reward


def _export_final_model(trainer, final_dir: Path, main_process: bool) -> None:
    """Save the trained model (or LoRA adapter) with its tokenizer; appears only once complete.

    Every process takes part in the save (FSDP gathers the shards), the first writes the files."""
    staging = final_dir.with_name(final_dir.name + ".partial")
    trainer.save_model(str(staging))
    trainer.accelerator.wait_for_everyone()
    if not main_process:
        return
    if final_dir.exists():
        shutil.rmtree(final_dir)
    staging.rename(final_dir)
    mark_complete(final_dir)
