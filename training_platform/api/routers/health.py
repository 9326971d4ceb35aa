"""A job's training health: its findings, a diagnosis of one step or of the whole job, the detector defaults."""

from typing import Annotated

from fastapi import APIRouter, Path, Query
from fastapi.concurrency import run_in_threadpool

from training_platform.api.deps import PlatformDep
from training_platform.contract.health import HealthSettings
from training_platform.contract.params import MAX_STEPS
from training_platform.diagnostics.schemas import FindingRead, HealthRead, Severity, StepDiagnosis

router = APIRouter(tags=["health"])
StepQuery = Annotated[int | None, Query(ge=0, le=MAX_STEPS)]


@router.get("/health/defaults")
def get_health_defaults() -> HealthSettings:
    """The detector settings and automatic actions a job gets for what its `health` field leaves out."""
    return HealthSettings()


@router.get("/jobs/{job}/health")
def get_health(job: str, platform: PlatformDep) -> HealthRead:
    return platform.diagnostics.health(job)


@router.get("/jobs/{job}/findings")
def get_findings(
    job: str,
    platform: PlatformDep,
    kind: Annotated[list[str] | None, Query(max_length=50, description="Only these kinds (repeat).")] = None,
    severity: Annotated[list[Severity] | None, Query(max_length=3, description="Only these severities.")] = None,
    start_step: StepQuery = None,
    end_step: StepQuery = None,
) -> list[FindingRead]:
    """The job's findings, worst first; a step range keeps those whose own step range overlaps it."""
    return platform.diagnostics.findings(job, kind or [], severity or [], start_step, end_step)


@router.get("/jobs/{job}/health/steps/{step}")
async def diagnose_step(
    job: str, step: Annotated[int, Path(ge=0, le=MAX_STEPS)], platform: PlatformDep
) -> StepDiagnosis:
    """What the detectors say at one step, with the job's history before it."""
    return await run_in_threadpool(platform.diagnostics.diagnose_step, job, step)


@router.post("/jobs/{job}/diagnose")
async def diagnose_job(job: str, platform: PlatformDep) -> HealthRead:
    """Run every detector over the whole job (its stored metrics and its log) again; its findings become what
    this pass found. Running it twice changes nothing."""
    return await run_in_threadpool(platform.diagnostics.diagnose_job, job)
