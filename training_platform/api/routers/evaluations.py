from typing import Annotated

from fastapi import APIRouter, Query, status

from training_platform.api.deps import PlatformDep
from training_platform.evals.schemas import (
    CompareRequest,
    ComparisonRead,
    CurveRead,
    EvalRequest,
    EvalRunRead,
    MetricRead,
    SamplesPage,
    SweepRequest,
    metric_table,
)
from training_platform.jobs.schemas import JobRead

router = APIRouter(prefix="/evaluations", tags=["evaluations"])


@router.get("/metrics")
def metrics() -> list[MetricRead]:
    """The metrics a run may name: what each needs of a dataset, the keys it reports, its scale and its library."""
    return metric_table()


@router.post("", status_code=status.HTTP_201_CREATED)
def create_run(body: EvalRequest, platform: PlatformDep) -> JobRead:
    return platform.evals.create(body)


@router.post("/sweep", status_code=status.HTTP_201_CREATED)
def sweep(body: SweepRequest, platform: PlatformDep) -> list[JobRead]:
    """One run per chosen checkpoint of a job (every `every`-th, its last, and its final model)."""
    return platform.evals.sweep(body)


@router.get("")
def list_runs(platform: PlatformDep, limit: Annotated[int, Query(ge=1, le=1000)] = 200) -> list[EvalRunRead]:
    return platform.evals.list_runs(limit)


@router.post("/compare")
def compare(body: CompareRequest, platform: PlatformDep) -> ComparisonRead:
    return platform.evals.compare(body)


@router.get("/curve/{job}")
def curve(job: str, platform: PlatformDep) -> CurveRead:
    """The evaluations of a training job's checkpoints and final model, by step."""
    return platform.evals.curve(job)


@router.get("/{run}")
def get_run(run: str, platform: PlatformDep) -> EvalRunRead:
    return platform.evals.run(run)


@router.get("/{run}/samples")
def samples(
    run: str,
    platform: PlatformDep,
    offset: Annotated[int, Query(ge=0, le=2**62)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    category: Annotated[str | None, Query(max_length=200)] = None,
    search: Annotated[str | None, Query(max_length=200)] = None,
) -> SamplesPage:
    return platform.evals.samples(run, offset, limit, category, search)
