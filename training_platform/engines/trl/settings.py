"""Engine settings of the TRL engine: fields of TRL's trainer config for the job's algorithm (SFTConfig, DPOConfig,
GRPOConfig), given per job and passed as they are to the config the training process builds (arguments.py).

Each refusal names its key (`engine_settings.<key>`):
- what the platform sets itself (arguments.py, recipe.py): the job parameter that sets it is the one to change,
  so that the configurator, the health checks and the job page read the same value the trainer uses;
- fields that reach outside the job's own place: files and folders, a hub, the network, trackers (the platform
  exports metrics itself, training_platform/trackers), another launcher's configuration, or model code;
- fields a mapping configures (`*_kwargs`, `*_config`): TRL parses them from JSON text into options no check
  here reads;
- unknown fields, and values TRL refuses: checked by TRL itself, building the config with the platform's arguments
  and the settings in a decoding worker that has TRL loaded (the server imports neither torch nor TRL).
"""

import dataclasses
import types
import typing
from typing import Any

from training_platform.common.worker import Worker
from training_platform.contract.params import Algorithm
from training_platform.contract.run import RunSpec
from training_platform.engines.trl.arguments import trainer_arguments
from training_platform.errors import FieldError

CONFIG_CLASSES = {
    Algorithm.SFT: "SFTConfig",
    Algorithm.DPO: "DPOConfig",
    Algorithm.GRPO: "GRPOConfig",
    Algorithm.GSPO: "GRPOConfig",
}
# The modules a worker preloads so that building a config costs a fork (datasets/decoding.py PREVIEW_PRELOAD).
CONFIG_MODULES = ("trl.trainer.sft_config", "trl.trainer.dpo_config", "trl.trainer.grpo_config")
# Set by the recipe itself besides arguments.py's arguments (recipe.py: how the RL reference model is loaded).
RECIPE_KEYS = frozenset({"model_init_kwargs"})
OUTSIDE_THE_JOB = {
    **dict.fromkeys(
        ("output_dir", "logging_dir", "resume_from_checkpoint", "chat_template_path", "save_on_each_node"),
        "the job's files are where the platform puts them",
    ),
    **dict.fromkeys(
        (
            "push_to_hub",
            "hub_model_id",
            "hub_strategy",
            "hub_token",
            "hub_private_repo",
            "hub_always_push",
            "hub_revision",
            "log_completions_hub_repo",
        ),
        "the platform never reaches a hub: export a checkpoint and publish it yourself",
    ),
    **dict.fromkeys(
        ("report_to", "project", "run_name", "trackio_space_id", "trackio_bucket_id", "trackio_static_space_id"),
        "metrics go to trackers through the job's trackers field (docs/trackers.md)",
    ),
    **dict.fromkeys(
        ("deepspeed", "fsdp", "fsdp_config", "accelerator_config", "parallelism_config", "local_rank", "ddp_backend"),
        "how the job's processes are launched and sharded follows params.num_gpus and params.zero_stage",
    ),
    **dict.fromkeys(
        ("vllm_mode", "vllm_server_base_url", "vllm_server_host", "vllm_server_port", "vllm_group_port"),
        "the platform does not connect a job to a server on the network",
    ),
    **dict.fromkeys(
        ("trust_remote_code", "torch_compile_backend"),
        "it runs code that is not the platform's or the model library's",
    ),
}


def setting_problems(spec: RunSpec, device: str, worker: Worker) -> list[FieldError]:
    """Why the job's engine settings cannot be passed to TRL's config on `device`; empty when they can."""
    if not spec.engine_settings:
        return []
    platform = trainer_arguments(spec, device, with_settings=False)
    problems = []
    for key in spec.engine_settings:
        if key in OUTSIDE_THE_JOB:
            problems.append(_problem(key, f"not an engine setting: {OUTSIDE_THE_JOB[key]}"))
        elif key in platform or key in RECIPE_KEYS:
            problems.append(_problem(key, "the platform sets it from the job's params: change the parameter instead"))
    if problems:
        return problems
    arguments = {**platform, **spec.engine_settings}
    found = worker.run(
        config_problems,
        CONFIG_CLASSES[spec.algorithm],
        arguments,
        sorted(spec.engine_settings),
        field="engine_settings",
        what="checking the engine settings with TRL",
    )
    return [_problem(key, message) for key, message in found]


def config_problems(class_name: str, arguments: dict[str, Any], settings: list[str]) -> list[tuple[str, str]]:
    """(setting, why) for each setting TRL's `class_name` refuses; run in a worker with TRL loaded."""
    import trl  # noqa: PLC0415 - the worker has it loaded (CONFIG_MODULES); the server never imports it

    config_class = getattr(trl, class_name)
    fields = {field.name: field for field in dataclasses.fields(config_class) if field.init}
    problems = []
    for key in settings:
        if key not in fields:
            problems.append((key, f"not a field of TRL's {class_name}"))
        elif _configures_a_mapping(fields[key].type):
            problems.append((key, "a field TRL reads as a mapping of options: not an engine setting"))
    if problems:
        return problems
    try:
        config_class(**arguments)
    except (TypeError, ValueError) as error:
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        blamed = [key for key in settings if key in message] or settings
        return [(key, f"TRL's {class_name} refuses it: {message}") for key in blamed]
    return []


def _configures_a_mapping(annotation: Any) -> bool:
    if isinstance(annotation, str):  # annotations read as text: the field's type as written
        return "dict" in annotation.lower()
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return any(_configures_a_mapping(member) for member in typing.get_args(annotation))
    return annotation is dict or origin is dict


def _problem(key: str, message: str) -> FieldError:
    return FieldError(f"engine_settings.{key}", message)
