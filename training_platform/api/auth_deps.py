"""Dependencies for the routes that need to know who asks (the access middleware, api/security.py, has found out
before any route runs)."""

from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from training_platform.auth.errors import ForbiddenError, UnauthenticatedError
from training_platform.auth.schemas import Principal
from training_platform.auth.service import AuthService


def current_principal(request: HTTPConnection) -> Principal:
    """Who sends the request, or opens the WebSocket."""
    principal = request.scope.get("state", {}).get("principal")
    if principal is None:  # a route the middleware let through as public: it has no business asking
        raise UnauthenticatedError("this request carries no credential")
    return principal


def require_admin(principal: Annotated[Principal, Depends(current_principal)]) -> Principal:
    if not principal.is_admin:
        raise ForbiddenError("only an admin may do this")
    return principal


def get_auth(request: Request) -> AuthService:
    return request.app.state.auth


def client_address(request: HTTPConnection) -> str:
    return request.client.host if request.client else "unknown"


PrincipalDep = Annotated[Principal, Depends(current_principal)]
AdminDep = Annotated[Principal, Depends(require_admin)]
AuthDep = Annotated[AuthService, Depends(get_auth)]
