"""Remote hosts (run mode ssh:<name>, docs/hosts.md).

Adding, testing, trusting and removing a host are an admin's: a host's credentials let the server run anything
there. Everyone reads the hosts (never their credentials) and the datasets' sync state, and syncs datasets to
them, as a run there does."""

from typing import Annotated

from fastapi import APIRouter, Body, Depends, Response, status

from training_platform.api.auth_deps import PrincipalDep, require_admin
from training_platform.api.deps import PlatformDep
from training_platform.hosts.schemas import DatasetSync, HostCreate, HostRead, HostTest

router = APIRouter(prefix="/hosts", tags=["hosts"])
ADMIN_ONLY = [Depends(require_admin)]


@router.get("")
def list_hosts(platform: PlatformDep) -> list[HostRead]:
    return platform.hosts.list_all()


@router.post("", status_code=status.HTTP_201_CREATED, dependencies=ADMIN_ONLY)
def add_host(body: HostCreate, platform: PlatformDep, principal: PrincipalDep) -> HostRead:
    """Its password or private key goes to the secrets store (PLATFORM_SECRET_KEY must be set); test it next."""
    return platform.hosts.create(body, principal.name)


@router.get("/{name}")
def get_host(name: str, platform: PlatformDep) -> HostRead:
    return platform.hosts.get(name)


@router.delete("/{name}", status_code=status.HTTP_204_NO_CONTENT, dependencies=ADMIN_ONLY)
def remove_host(name: str, platform: PlatformDep) -> Response:
    platform.hosts.delete(name)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/{name}/test", dependencies=ADMIN_ONLY)
def test_host(name: str, platform: PlatformDep) -> HostTest:
    """Connect (the first time, trusting the host key it presents) and report what the host has."""
    return platform.hosts.test(name)


@router.post("/{name}/trust", dependencies=ADMIN_ONLY)
def trust_host_key(name: str, platform: PlatformDep) -> HostTest:
    """Trust the host key the machine presents now (after a reinstall), then test it."""
    return platform.hosts.trust(name)


@router.get("/{name}/datasets")
def dataset_sync_states(name: str, platform: PlatformDep) -> list[DatasetSync]:
    """Each registered dataset's copy on the host: synced, syncing, not synced or failed."""
    return platform.hosts.dataset_states(name)


@router.post("/{name}/datasets/sync", status_code=status.HTTP_202_ACCEPTED)
def sync_datasets(
    name: str,
    platform: PlatformDep,
    dataset: Annotated[
        str | None, Body(embed=True, max_length=200, description="A dataset's name or id; none: all of them.")
    ] = None,
) -> list[DatasetSync]:
    """Start copying the dataset (or every dataset) to the host, in the background; resumable, checked by hash."""
    return platform.hosts.sync_datasets(name, dataset)
