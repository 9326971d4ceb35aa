"""Every recommendation the configurator can produce, applied as a new job (its engine, its parameters), is
accepted by the job service: algorithms × GPU counts × model sizes × GPU kinds, with verl's own validation of
each verl command (in the CPU RL environment, which has a rollout engine)."""

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
    refused = []
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
    # The walk reached both engines and every algorithm (a recommender that never fits would pass vacuously).
    assert applied == {"sft": {"verl", "trl"}, "dpo": {"trl"}, "grpo": {"verl", "trl"}, "gspo": {"verl", "trl"},
                       "ppo": {"verl"}}  # fmt: skip
