"""Every recommendation the configurator can produce, applied as a new job (its engine, its parameters), is
accepted by the job service: algorithms × GPU counts × model sizes × GPU kinds, with verl's own validation of
each verl command (in the CPU RL environment, which has a rollout engine); and what each engine's panel shows of
it (verl's overrides, TRL's arguments, LoRA and accelerate config) says what the recommendation says."""

from pathlib import Path

import pytest

from training_platform.compute.schemas import RecommendBody
from training_platform.contract.params import Algorithm
from training_platform.jobs.schemas import JobCreate
from training_platform.settings import get_settings

RL_PYTHON = Path(".venv-rl/bin/python").absolute()
MODELS = ("Qwen2.5-0.5B", "Qwen2.5-7B", "Qwen2.5-72B")
GPUS = ("H100-80G", "RTX-4090", "Apple-M3-Max-128G")
GPU_COUNTS = (1, 2, 8)
DATA = {"sft": "sft", "dpo": "dpo", "grpo": "grpo", "gspo": "grpo", "ppo": "grpo"}
FSDP_SHARDING = {0: None, 2: "SHARD_GRAD_OP", 3: "FULL_SHARD"}  # TRL's accelerate config for a ZeRO stage


def trl_shows(configuration: dict) -> dict:
    """The recommended settings as TRL's arguments, LoRA config and accelerate config express them."""
    arguments, accelerate = configuration["trl_arguments"], configuration.get("accelerate_config")
    fsdp = (accelerate or {}).get("fsdp_config")
    shown = {
        "micro_batch": arguments["per_device_train_batch_size"],
        "gradient_accumulation": arguments["gradient_accumulation_steps"],
        "num_gpus": accelerate["num_processes"] if accelerate else 1,
        "gradient_checkpointing": arguments["gradient_checkpointing"]
        or bool(fsdp and fsdp["fsdp_activation_checkpointing"]),
        "lora_rank": (configuration.get("lora_arguments") or {}).get("r", 0),
        "bf16": arguments["bf16"],
    }
    if accelerate:
        shown["sharding"] = fsdp["fsdp_sharding_strategy"] if fsdp else None
    if "num_generations" in arguments:
        shown.update(rollout_n=arguments["num_generations"], response_length=arguments["max_completion_length"])
    else:
        shown["seq_len"] = arguments["max_length"]
    return shown


def verl_shows(configuration: dict, algorithm: str) -> dict:
    """The recommended settings as verl's overrides express them."""
    overrides = dict(override.lstrip("+").split("=", 1) for override in configuration["verl_overrides"])
    actor = "actor_rollout_ref" if algorithm != "sft" else None
    model = f"{actor}.model" if actor else "model"
    fsdp = f"{actor}.actor.fsdp_config" if actor else "engine"
    micro = f"{actor}.actor.ppo_micro_batch_size_per_gpu" if actor else "data.micro_batch_size_per_gpu"
    shown = {
        "global_batch": int(overrides["data.train_batch_size"]),
        "micro_batch": int(overrides[micro]),
        "num_gpus": int(overrides["trainer.n_gpus_per_node"]) * int(overrides["trainer.nnodes"]),
        "gradient_checkpointing": overrides[f"{model}.enable_gradient_checkpointing"] == "true",
        "lora_rank": int(overrides.get(f"{model}.lora_rank", 0)),
        "offload_optimizer": overrides.get(f"{fsdp}.optimizer_offload") == "true",
        "offload_params": overrides.get(f"{fsdp}.param_offload") == "true",
    }
    if actor:
        shown.update(
            rollout_n=int(overrides[f"{actor}.rollout.n"]),
            response_length=int(overrides["data.max_response_length"]),
            rollout_share=float(overrides.get(f"{actor}.rollout.gpu_memory_utilization", "nan")),
        )
    else:
        shown["seq_len"] = int(overrides["data.max_length"])
    return shown


def disagreements(recommendation) -> list[str]:
    """Each setting an engine's panel shows otherwise than the recommendation, and each panel left empty without a
    reason."""
    chosen, params = recommendation.configuration, recommendation.params
    recommended = {
        "global_batch": recommendation.global_batch,
        "micro_batch": recommendation.micro_batch,
        "gradient_accumulation": recommendation.gradient_accumulation,
        "num_gpus": chosen.num_gpus,
        "gradient_checkpointing": chosen.gradient_checkpointing,
        "lora_rank": chosen.lora_rank,
        "bf16": chosen.precision != "fp32",
        "offload_optimizer": chosen.offload_optimizer,
        "offload_params": chosen.offload_params,
        "sharding": FSDP_SHARDING.get(chosen.zero_stage),
        "rollout_n": chosen.rollout_n,
        "response_length": params.get("max_response_length"),
        "seq_len": chosen.seq_len,
        "rollout_share": chosen.gpu_memory_utilization,
    }
    found = []
    for panel in recommendation.engines:
        if panel.configuration is None:
            if panel.recommended or not panel.not_shown:
                found.append(f"{panel.engine}: no configuration shown ({panel.not_shown})")
            continue
        if panel.engine == "trl":
            shown = trl_shows(panel.configuration)
            if panel.configuration["trl_arguments"].get("packing") and shown["micro_batch"] == 1:
                # Packed, TRL's micro-batch is one pack of micro_batch_size samples' tokens (engines/trl/packing.py).
                shown["micro_batch"] = params["micro_batch_size"]
        else:
            shown = verl_shows(panel.configuration, recommendation.algorithm)
            if not (panel.recommended and recommendation.engine_settings):
                shown.pop("rollout_share", None)  # sized where the search gave verl vLLM's share (engine settings)
        found += [
            f"{panel.engine}: {key} shown {value!r}, recommended {recommended[key]!r}"
            for key, value in shown.items()
            if value != recommended[key]
        ]
    return found


@pytest.fixture
def verl_with_a_rollout_engine(monkeypatch):
    if not RL_PYTHON.exists():
        pytest.fail(f"the CPU RL environment is missing ({RL_PYTHON}): build it with `make rl-env`")
    monkeypatch.setenv("PLATFORM_VERL_PYTHON", str(RL_PYTHON))
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_every_recommendation_applied_is_accepted_by_the_job_service(platform, demo_assets, verl_with_a_rollout_engine):
    applied: dict[str, set[str]] = {algorithm.value: set() for algorithm in Algorithm}
    refused, disagreeing = [], []
    for model in MODELS:
        for gpu in GPUS:
            for num_gpus in GPU_COUNTS:
                for algorithm in Algorithm:
                    body = RecommendBody(
                        model=model,
                        gpu=gpu,
                        num_gpus=num_gpus,
                        seq_len=2048,
                        algorithm=algorithm,
                        reward_model=model if algorithm == Algorithm.PPO else None,
                    )
                    recommendation = platform.compute.recommend(body)
                    if not recommendation.fits:
                        # Honest about it: why, or what would fit instead.
                        assert recommendation.engine is None and (recommendation.reasons or recommendation.suggestions)
                        continue
                    if found := disagreements(recommendation):
                        disagreeing.append((f"{algorithm.value} {model} {num_gpus}×{gpu}", found))
                    params = dict(recommendation.params)
                    if algorithm == Algorithm.PPO:
                        params["reward_model_path"] = str(demo_assets["reward_model"])
                    name = f"{algorithm.value}-{model}-{gpu}-{num_gpus}".lower().replace(".", "-")
                    try:
                        job = platform.jobs.create(
                            JobCreate(
                                name=name,
                                algorithm=algorithm,
                                engine=recommendation.engine,
                                model_path=str(demo_assets["model"]),
                                dataset_paths=[str(demo_assets[DATA[algorithm.value]])],
                                params=params,
                            )
                        )
                    except Exception as error:  # noqa: BLE001 - collected, so one run lists every refusal
                        refused.append((name, recommendation.engine, params, str(error)))
                        continue
                    assert (job.engine, job.status) == (recommendation.engine, "pending")
                    applied[algorithm.value].add(recommendation.engine)
    assert refused == [], "\n".join(map(str, refused))
    assert disagreeing == [], "\n".join(map(str, disagreeing))
    # The walk reached both engines and every algorithm (a recommender that never fits would pass vacuously).
    assert applied == {"sft": {"verl", "trl"}, "dpo": {"trl"}, "grpo": {"verl", "trl"}, "gspo": {"verl", "trl"},
                       "ppo": {"verl"}}  # fmt: skip
