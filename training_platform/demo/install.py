"""The offline demo: its model, reward model, datasets and a pending SFT job, made in the platform's home and
registered (idempotent). `tplat demo` asks a running server for it; `tplat serve --demo` installs it at start."""

from pydantic import BaseModel

from training_platform.contract.params import Algorithm
from training_platform.datasets.schemas import DatasetRegister
from training_platform.demo.assets import (
    DEMO_MODEL_NAME,
    DEMO_REWARD_MODEL_NAME,
    build_datasets,
    build_model,
    build_reward_model,
    build_tokenizer,
)
from training_platform.errors import NotFoundError
from training_platform.jobs.schemas import JobCreate
from training_platform.models.schemas import ModelRegister
from training_platform.platform import Platform

DEMO_JOB_NAME = "demo-sft"
# Sized for the tiny model on a laptop CPU: about 10 seconds of training, loss falls from ~5.7 to ~0.4 and
# the model answers in the taught format ("The answer is N.").
DEMO_SFT_PARAMS = {
    "learning_rate": 3e-3,
    "batch_size": 16,
    "micro_batch_size": 16,
    "max_steps": 200,
    "save_interval": 50,
    "warmup_ratio": 0.05,
}


class DemoSummary(BaseModel):
    model_path: str
    datasets: dict[str, str]
    job_name: str
    created: list[str]


def install_demo(platform: Platform) -> DemoSummary:
    created = []
    model_dir = platform.settings.models_dir / DEMO_MODEL_NAME
    if not (model_dir / "config.json").exists():
        model_dir.mkdir(parents=True, exist_ok=True)
        tokenizer = build_tokenizer(model_dir)
        build_model(model_dir, tokenizer)
        created.append(f"model {model_dir}")
    if not _registered(platform.models.get, DEMO_MODEL_NAME):
        platform.models.register(
            ModelRegister(name=DEMO_MODEL_NAME, path=str(model_dir), description="tiny 2-layer Qwen2 for the demo")
        )
    reward_model_dir = platform.settings.models_dir / DEMO_REWARD_MODEL_NAME
    if not (reward_model_dir / "config.json").exists():
        build_reward_model(reward_model_dir, model_dir)
        created.append(f"reward model {reward_model_dir}")
    if not _registered(platform.models.get, DEMO_REWARD_MODEL_NAME):
        platform.models.register(
            ModelRegister(
                name=DEMO_REWARD_MODEL_NAME,
                path=str(reward_model_dir),
                description="the demo model with an untrained score head: a reward model for trying PPO",
            )
        )

    paths = {}
    for dataset in build_datasets(platform.settings.datasets_dir / "demo"):
        paths[dataset.name] = str(dataset.path)
        if not _registered(platform.datasets.get, dataset.name):
            platform.datasets.register(
                DatasetRegister(
                    name=dataset.name, path=str(dataset.path), kind=dataset.kind, description=dataset.description
                )
            )
            created.append(f"dataset {dataset.name}")

    if not _registered(platform.jobs.get, DEMO_JOB_NAME):
        platform.jobs.create(
            JobCreate(
                name=DEMO_JOB_NAME,
                algorithm=Algorithm.SFT,
                model_path=str(model_dir),
                dataset_paths=[paths["demo-sft"]],
                params=DEMO_SFT_PARAMS,
            )
        )
        created.append(f"job {DEMO_JOB_NAME}")
    return DemoSummary(model_path=str(model_dir), datasets=paths, job_name=DEMO_JOB_NAME, created=created)


def _registered(lookup, name: str) -> bool:
    try:
        lookup(name)
        return True
    except NotFoundError:
        return False
