"""Secrets (API keys for evaluation targets and judges): stored and deleted by those who may change things,
listed by name to every user; a value goes in and never comes back out (secrets/service.py)."""

from fastapi import APIRouter, Response, status

from training_platform.api.auth_deps import PrincipalDep
from training_platform.api.deps import PlatformDep
from training_platform.secrets.schemas import SecretRead, SecretWrite

router = APIRouter(prefix="/secrets", tags=["secrets"])


@router.get("")
def list_secrets(platform: PlatformDep) -> list[SecretRead]:
    """Names and times only."""
    return platform.secrets.list_all()


@router.post("", status_code=status.HTTP_201_CREATED)
def put_secret(body: SecretWrite, platform: PlatformDep, principal: PrincipalDep) -> SecretRead:
    """Store a secret, or replace the value of the one with that name."""
    return platform.secrets.put(body.name, body.value.get_secret_value(), principal.name)


@router.delete("/{name}", status_code=status.HTTP_204_NO_CONTENT)
def delete_secret(name: str, platform: PlatformDep) -> Response:
    platform.secrets.delete(name)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
