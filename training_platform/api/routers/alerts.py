"""Alert targets (webhooks) and their deliveries (docs/alerts.md).

Reading is everyone's; adding, changing, deleting and test-sending a target are an admin's: a target makes the
server send requests to any address its creator names, inside the server's network included."""

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Response, status

from training_platform.alerts.schemas import (
    AlertTargetCreate,
    AlertTargetRead,
    AlertTargetUpdate,
    AttemptRead,
    DeliveryRead,
    DeliveryStatus,
)
from training_platform.api.auth_deps import require_admin
from training_platform.api.deps import PlatformDep

router = APIRouter(prefix="/alerts", tags=["alerts"])
ADMIN_ONLY = [Depends(require_admin)]


@router.get("/targets")
def list_targets(
    platform: PlatformDep,
    job: Annotated[str | None, Query(max_length=200, description="Only this job's own targets.")] = None,
) -> list[AlertTargetRead]:
    return platform.alerts.list_targets(job)


@router.post("/targets", status_code=status.HTTP_201_CREATED, dependencies=ADMIN_ONLY)
def create_target(body: AlertTargetCreate, platform: PlatformDep) -> AlertTargetRead:
    """A webhook for every job's alerts, or with `job` for one job's (it goes with the job)."""
    return platform.alerts.create_target(body)


@router.get("/targets/{target}")
def get_target(target: str, platform: PlatformDep) -> AlertTargetRead:
    return platform.alerts.get_target(target)


@router.patch("/targets/{target}", dependencies=ADMIN_ONLY)
def update_target(target: str, body: AlertTargetUpdate, platform: PlatformDep) -> AlertTargetRead:
    return platform.alerts.update_target(target, body)


@router.delete("/targets/{target}", status_code=status.HTTP_204_NO_CONTENT, dependencies=ADMIN_ONLY)
def delete_target(target: str, platform: PlatformDep) -> Response:
    """The target and its delivery history; what it had still to send is dropped."""
    platform.alerts.delete_target(target)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/targets/{target}/test", dependencies=ADMIN_ONLY)
def test_target(target: str, platform: PlatformDep) -> AttemptRead:
    """Send a test alert now and answer with the attempt (`ok`, the receiver's status code or the error)."""
    return platform.alerts.test_send(target)


@router.get("/targets/{target}/deliveries")
def list_deliveries(
    target: str,
    platform: PlatformDep,
    status_filter: Annotated[list[DeliveryStatus], Query(alias="status")] = [],  # noqa: B006 (FastAPI copies it)
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=2**62)] = 0,
) -> list[DeliveryRead]:
    """Newest first, each with every attempt made for it."""
    return platform.alerts.deliveries(target, status_filter, limit, offset)
