"""Pipelines (docs/pipelines.md): DAGs of stages, checked whole before anything runs, run on Celery's workers or
the server's threads, resumed from where they failed.

The stage routes are a worker's: a stage task claims its stage, renews its lease while it follows the stage's
work, and settles it. A worker's token is an admin's (`tplat worker`), since what a stage launches is any kind
of work, done as the pipeline's owner."""

from typing import Annotated

from fastapi import APIRouter, Body, Depends, Response, status

from training_platform.api.auth_deps import PrincipalDep, require_admin
from training_platform.api.deps import PlatformDep
from training_platform.pipelines.protocol import (
    StageClaim,
    StageTask,
)
from training_platform.pipelines.schemas import (
    PipelineCheck,
    PipelineCreate,
    PipelineRead,
    PipelineSource,
    PipelineSummary,
    ResumeRequest,
    StageRead,
    StageTypeRead,
    TemplateRead,
)

router = APIRouter(prefix="/pipelines", tags=["pipelines"])
WORKERS_ONLY = [Depends(require_admin)]


@router.get("/stage-types")
def stage_types(platform: PlatformDep) -> list[StageTypeRead]:
    return platform.pipelines.stage_types()


@router.get("/templates")
def templates(platform: PlatformDep) -> list[TemplateRead]:
    return platform.pipelines.templates()


@router.post("/validate")
def validate(body: PipelineSource, platform: PlatformDep) -> PipelineCheck:
    """Every problem at once (422), each with its stage, field and YAML line; or the layers it would run in."""
    return platform.pipelines.validate(body)


@router.post("", status_code=status.HTTP_201_CREATED)
def create(body: PipelineCreate, platform: PlatformDep, principal: PrincipalDep) -> PipelineRead:
    return platform.pipelines.create(body, principal.name)


@router.get("")
def list_pipelines(platform: PlatformDep) -> list[PipelineSummary]:
    return platform.pipelines.list_all()


@router.get("/{pipeline}")
def get_pipeline(pipeline: str, platform: PlatformDep) -> PipelineRead:
    return platform.pipelines.read(pipeline)


@router.put("/{pipeline}")
def edit(pipeline: str, body: PipelineSource, platform: PlatformDep) -> PipelineRead:
    """A new definition for a pipeline that is not running; completed stages whose parameters changed are shown
    as edited and run again only when a resume names them."""
    return platform.pipelines.edit(pipeline, body)


@router.delete("/{pipeline}", status_code=status.HTTP_204_NO_CONTENT)
def delete(pipeline: str, platform: PlatformDep) -> Response:
    platform.pipelines.delete(pipeline)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/{pipeline}/start")
def start(pipeline: str, platform: PlatformDep) -> PipelineRead:
    return platform.pipelines.start(pipeline)


@router.post("/{pipeline}/resume")
def resume(pipeline: str, platform: PlatformDep, body: Annotated[ResumeRequest | None, Body()] = None) -> PipelineRead:
    return platform.pipelines.resume(pipeline, (body or ResumeRequest()).rerun)


@router.post("/{pipeline}/cancel")
def cancel(pipeline: str, platform: PlatformDep) -> PipelineRead:
    return platform.pipelines.cancel(pipeline)


@router.post("/{pipeline}/stages/{stage}/claim", dependencies=WORKERS_ONLY)
def claim(pipeline: str, stage: str, body: StageClaim, platform: PlatformDep) -> StageTask:
    return platform.pipelines.claim(pipeline, stage, body)


@router.post("/{pipeline}/stages/{stage}/heartbeat", dependencies=WORKERS_ONLY)
def heartbeat(pipeline: str, stage: str, body: StageClaim, platform: PlatformDep) -> StageTask:
    return platform.pipelines.heartbeat(pipeline, stage, body)


@router.post("/{pipeline}/stages/{stage}/settle", dependencies=WORKERS_ONLY)
def settle(pipeline: str, stage: str, body: StageClaim, platform: PlatformDep) -> StageRead:
    return platform.pipelines.settle(pipeline, stage, body)
