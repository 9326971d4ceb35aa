from importlib.metadata import version

from fastapi import APIRouter
from pydantic import BaseModel, Field

from training_platform import __version__
from training_platform.api.deps import PlatformDep
from training_platform.engines.registry import engine_names

router = APIRouter(tags=["system"])


class Health(BaseModel):
    status: str
    version: str


class SystemInfo(BaseModel):
    version: str
    home: str
    paths: dict[str, str]
    database: str
    run_modes: list[str]
    gpus: list[int] = Field(description="The GPUs (CUDA indices) local jobs are given; none: jobs run on the CPU.")
    engines: list[str]
    packages: dict[str, str]


@router.get("/health")
def health() -> Health:
    return Health(status="ok", version=__version__)


@router.get("/system")
def system_info(platform: PlatformDep) -> SystemInfo:
    return SystemInfo(
        version=__version__,
        home=str(platform.settings.home),
        paths={
            "jobs": str(platform.settings.jobs_dir),
            "models": str(platform.settings.models_dir),
            "datasets": str(platform.settings.datasets_dir),
            "vectors": platform.settings.vector_uri,
        },
        database=platform.db.engine.url.get_backend_name(),
        run_modes=platform.run_modes,
        gpus=platform.jobs.scheduler.devices("local"),
        engines=engine_names(),
        packages={name: version(name) for name in ("torch", "transformers", "trl", "peft", "fastapi")},
    )
