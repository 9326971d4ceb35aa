"""/api/v1/auth: logging in and out, API tokens, users (admins), the audit log (admins).

The web UI's session is a cookie the browser keeps and scripts never need: HttpOnly (no page script can read it),
SameSite=Strict (no other site's page makes the browser send it), Secure when the server is reached over https.
"""

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response, status
from fastapi.concurrency import run_in_threadpool

from training_platform.api.auth_deps import AdminDep, AuthDep, PrincipalDep, client_address
from training_platform.api.authentication import SESSION_COOKIE
from training_platform.auth.schemas import (
    AuditEntryRead,
    AuditQuery,
    LoginRequest,
    LoginResult,
    Me,
    TokenCreate,
    TokenCreated,
    TokenRead,
    UserCreate,
    UserRead,
    UserUpdate,
)

router = APIRouter(prefix="/auth", tags=["auth"])


@router.post("/login")
async def login(
    body: LoginRequest,
    request: Request,
    response: Response,
    auth: AuthDep,
    token: Annotated[bool, Query(description="Also return the session token in the body (for scripts).")] = False,
) -> LoginResult:
    """Start a web session (the `tplat_session` cookie). Failed attempts are limited per client address and per
    user name (PLATFORM_LOGIN_ATTEMPTS_PER_MINUTE); over the limit the answer is 429 with Retry-After."""
    # In a thread: checking an argon2 hash takes a CPU for tens of milliseconds.
    result, session_token = await run_in_threadpool(auth.login, body.username, body.password, client_address(request))
    response.set_cookie(
        SESSION_COOKIE,
        session_token,
        max_age=int(auth.session_length.total_seconds()),
        path="/",
        secure=request.url.scheme == "https",
        httponly=True,
        samesite="strict",
    )
    if token:
        result.token = session_token
    return result


@router.post("/logout", status_code=status.HTTP_204_NO_CONTENT)
def logout(request: Request, principal: PrincipalDep, auth: AuthDep) -> Response:
    """End this session (an API token used to call this stays valid: revoke it at DELETE /auth/tokens/{token})."""
    auth.logout(principal, client_address(request))
    response = Response(status_code=status.HTTP_204_NO_CONTENT)
    response.delete_cookie(
        SESSION_COOKIE, path="/", secure=request.url.scheme == "https", httponly=True, samesite="strict"
    )
    return response


@router.get("/me")
def me(principal: PrincipalDep) -> Me:
    return Me(name=principal.name, role=principal.role, via=principal.source)


@router.post("/tokens", status_code=status.HTTP_201_CREATED)
def create_token(body: TokenCreate, request: Request, principal: PrincipalDep, auth: AuthDep) -> TokenCreated:
    """A new API token, shown in this answer only: the platform keeps its hash."""
    return auth.create_token(principal, body, client_address(request))


@router.get("/tokens")
def list_tokens(principal: PrincipalDep, auth: AuthDep) -> list[TokenRead]:
    """Your tokens and web sessions (an admin sees everyone's); never the tokens themselves."""
    return auth.list_tokens(principal)


@router.delete("/tokens/{token}", status_code=status.HTTP_204_NO_CONTENT)
def revoke_token(token: str, request: Request, principal: PrincipalDep, auth: AuthDep) -> Response:
    auth.revoke_token(principal, token, client_address(request))
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/users")
def list_users(_admin: AdminDep, auth: AuthDep) -> list[UserRead]:
    return auth.list_users()


@router.post("/users", status_code=status.HTTP_201_CREATED)
async def create_user(body: UserCreate, request: Request, admin: AdminDep, auth: AuthDep) -> UserRead:
    return await run_in_threadpool(auth.create_user, admin.name, body, client_address(request))


@router.patch("/users/{name}")
async def update_user(name: str, body: UserUpdate, request: Request, admin: AdminDep, auth: AuthDep) -> UserRead:
    """Change a user's role, password (which ends their web sessions) or whether they are disabled."""
    return await run_in_threadpool(auth.update_user, admin.name, name, body, client_address(request))


@router.get("/audit")
def audit_log(_admin: AdminDep, auth: AuthDep, query: Annotated[AuditQuery, Query()]) -> list[AuditEntryRead]:
    """Who created, started, paused, resumed, stopped, exported or deleted what, newest first."""
    return auth.audit_log(query)
