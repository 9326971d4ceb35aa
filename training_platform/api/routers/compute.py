from typing import Any

from fastapi import APIRouter

from training_platform.compute import service
from training_platform.compute.service import EstimateBody, RecommendBody

router = APIRouter(prefix="/compute", tags=["compute"])


@router.post("/estimate")
def estimate(body: EstimateBody) -> dict[str, Any]:
    """Per-GPU memory of a training configuration, term by term, each with its formula and why."""
    return service.run_estimate(body)


@router.post("/recommend")
def recommend(body: RecommendBody) -> dict[str, Any]:
    """The fastest configuration that fits; `params` can be posted unchanged as a new job's parameters."""
    return service.run_recommend(body)


@router.get("/gpus")
def gpus() -> list[dict[str, Any]]:
    return service.list_gpus()


@router.get("/models")
def models() -> list[dict[str, Any]]:
    return service.list_models()
