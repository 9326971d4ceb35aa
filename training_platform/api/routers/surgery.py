from fastapi import APIRouter, status

from training_platform.api.deps import PlatformDep
from training_platform.contract.surgery import MERGE_METHODS
from training_platform.jobs.schemas import JobRead
from training_platform.surgery.schemas import (
    AverageRequest,
    LoraFoldRequest,
    MergeMethodRead,
    MergeRequest,
    SelectionRead,
    SelectRequest,
)

router = APIRouter(prefix="/surgery", tags=["surgery"])


@router.get("/methods")
def merge_methods() -> list[MergeMethodRead]:
    return [MergeMethodRead.of(name, spec) for name, spec in MERGE_METHODS.items()]


@router.post("/merge", status_code=status.HTTP_201_CREATED)
def merge(body: MergeRequest, platform: PlatformDep) -> JobRead:
    return platform.surgery.merge(body)


@router.post("/average", status_code=status.HTTP_201_CREATED)
def average(body: AverageRequest, platform: PlatformDep) -> JobRead:
    return platform.surgery.average(body)


@router.post("/lora-fold", status_code=status.HTTP_201_CREATED)
def lora_fold(body: LoraFoldRequest, platform: PlatformDep) -> JobRead:
    return platform.surgery.lora_fold(body)


@router.post("/select")
def select(body: SelectRequest, platform: PlatformDep) -> SelectionRead:
    return platform.surgery.select(body)
