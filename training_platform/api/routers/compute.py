from fastapi import APIRouter

from training_platform.api.deps import LanguageDep, PlatformDep
from training_platform.compute.schemas import (
    EstimateBody,
    EstimateRead,
    GpuRead,
    ModelPresetRead,
    RecommendationRead,
    RecommendBody,
)

router = APIRouter(prefix="/compute", tags=["compute"])


@router.post("/estimate")
def estimate(body: EstimateBody, platform: PlatformDep, language: LanguageDep) -> EstimateRead:
    """Per-GPU memory of a training configuration, term by term, each with its formula and why."""
    return platform.compute.estimate(body, language)


@router.post("/recommend")
def recommend(body: RecommendBody, platform: PlatformDep, language: LanguageDep) -> RecommendationRead:
    """The fastest configuration that fits and the engine that runs it; `params` can be posted unchanged as a new
    job's parameters with that engine."""
    return platform.compute.recommend(body, language)


@router.get("/gpus")
def gpus(platform: PlatformDep) -> list[GpuRead]:
    return platform.compute.gpus()


@router.get("/models")
def models(platform: PlatformDep) -> list[ModelPresetRead]:
    return platform.compute.models()
