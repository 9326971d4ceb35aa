"""Who may call what, for every HTTP route and WebSocket of the app (docs/security.md).

One ASGI middleware decides before any route runs, in this order:
1. the Host header names this server (loopback, the bound address, PLATFORM_ALLOWED_HOSTS): DNS rebinding;
2. an unsafe request or a WebSocket handshake that carries an Origin comes from this server's own origin or one of
   PLATFORM_ALLOWED_ORIGINS: a web page elsewhere cannot drive the API with the operator's browser;
3. a credential (`Authorization: Bearer`, or the session cookie) on everything under the API and on
   /openapi.json, the health probe and the login aside; the web UI's files stay public so it can show its login;
4. a route that takes JSON gets JSON: a cross-site form or `text/plain` post cannot pass for it;
5. the role: reading needs any user, changing needs a member (the routes that only compute are marked for viewers
   in UNSAFE_ROUTES), and a member changes only the jobs, datasets and models they own;
6. after a success: the owner of what was created, forgetting what was deleted, the audit log; what a request
   created and what became of a job (queued, started) the services report themselves (common/changes.py).
The routers stay HTTP translators: they never see any of this, the auth router aside.
"""

import json
import logging
import re
from dataclasses import dataclass, field
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import Depends, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute, APIWebSocketRoute, iter_route_contexts
from starlette.requests import HTTPConnection
from starlette.routing import WebSocketRoute, compile_path
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from training_platform.auth.errors import ForbiddenError, TooManyAttemptsError, UnauthenticatedError
from training_platform.auth.schemas import CredentialSource, Principal, ResourceKind
from training_platform.auth.service import AuthService
from training_platform.auth.setup import is_loopback
from training_platform.common.changes import Change, collect
from training_platform.errors import NotFoundError
from training_platform.platform import Platform
from training_platform.settings import Settings

log = logging.getLogger(__name__)

SESSION_COOKIE = "tplat_session"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
WILDCARD_BINDS = frozenset({"", "0.0.0.0", "::", "[::]"})
DEFAULT_PORTS = {"http": 80, "https": 443}
# Path parameters that name an owned resource, in every router.
OWNED_PARAMETERS = {"job": ResourceKind.JOB, "dataset": ResourceKind.DATASET, "model": ResourceKind.MODEL}
# Parents followed to find who owns a derived dataset (a dedup's or a conversion's version of another).
MAX_LINEAGE_STEPS = 64


@dataclass(frozen=True)
class Access:
    """What an unsafe route needs, and what a success leaves behind."""

    viewers: bool = False  # computes an answer and changes nothing: any user may call it
    action: str | None = None  # the audit log's action on success
    kind: ResourceKind | None = None  # what the route creates or deletes
    creates: bool = False  # the caller becomes the owner of the `kind` its services report as created
    deletes: bool = False  # the resource of the path is gone: so is its owner


# Every route that is not GET: tests/auth/test_api_access.py fails when a route is missing here, so a new one gets
# its decision on purpose. Ownership follows from the path (OWNED_PARAMETERS) unless `viewers` is set.
UNSAFE_ROUTES: dict[tuple[str, str], Access] = {
    ("POST", "/jobs"): Access(action="created", kind=ResourceKind.JOB, creates=True),
    ("DELETE", "/jobs/{job}"): Access(action="deleted", kind=ResourceKind.JOB, deletes=True),
    # Started, resumed or queued: as the scheduler reports it.
    ("POST", "/jobs/{job}/start"): Access(),
    ("POST", "/jobs/{job}/pause"): Access(action="paused"),
    ("POST", "/jobs/{job}/resume"): Access(),
    ("POST", "/jobs/{job}/stop"): Access(action="stopped"),
    ("POST", "/jobs/{job}/checkpoints/{checkpoint}/export"): Access(action="exported"),
    ("POST", "/jobs/{job}/diagnose"): Access(),
    ("POST", "/monitoring/{job}/metrics/sync"): Access(),
    # An unknown job name makes an external job, which the caller then owns.
    ("POST", "/monitoring/{job}/metrics/import"): Access(action="imported", kind=ResourceKind.JOB, creates=True),
    ("POST", "/datasets"): Access(action="registered", kind=ResourceKind.DATASET, creates=True),
    ("POST", "/datasets/upload"): Access(action="registered", kind=ResourceKind.DATASET, creates=True),
    ("POST", "/datasets/detect"): Access(viewers=True),  # reads the rows it is sent, changes nothing
    ("PATCH", "/datasets/{dataset}"): Access(action="changed"),
    ("DELETE", "/datasets/{dataset}"): Access(action="deleted", kind=ResourceKind.DATASET, deletes=True),
    ("POST", "/datasets/{dataset}/audit"): Access(),
    ("POST", "/datasets/{dataset}/index"): Access(),
    ("POST", "/datasets/{dataset}/search"): Access(viewers=True),
    ("POST", "/datasets/{dataset}/dedup"): Access(action="deduplicated"),
    ("POST", "/datasets/{dataset}/convert"): Access(action="converted", kind=ResourceKind.DATASET, creates=True),
    ("POST", "/models"): Access(action="registered", kind=ResourceKind.MODEL, creates=True),
    ("POST", "/compute/estimate"): Access(viewers=True),
    ("POST", "/compute/recommend"): Access(viewers=True),
    ("POST", "/engines/verl/validate"): Access(viewers=True),
    ("POST", "/demo"): Access(action="demo installed"),
    # An admin's (the router requires it): a target makes the server send requests wherever it says.
    ("POST", "/alerts/targets"): Access(action="alert target added"),
    ("PATCH", "/alerts/targets/{target}"): Access(action="alert target changed"),
    ("DELETE", "/alerts/targets/{target}"): Access(action="alert target deleted"),
    ("POST", "/alerts/targets/{target}/test"): Access(action="alert target tested"),
    # Everyone manages their own credentials; the auth router checks the rest (users are an admin's) and audits.
    ("POST", "/auth/login"): Access(viewers=True),
    ("POST", "/auth/logout"): Access(viewers=True),
    ("POST", "/auth/tokens"): Access(viewers=True),
    ("DELETE", "/auth/tokens/{token}"): Access(viewers=True),
    ("POST", "/auth/users"): Access(),
    ("PATCH", "/auth/users/{name}"): Access(),
}
# Unlisted routes (there should be none) are member routes owned by their path.
MEMBER_ROUTE = Access()


@dataclass(frozen=True)
class KnownRoute:
    """A route of the app as the checks need it: its path template, methods, and whether it reads a JSON body."""

    path: str
    methods: frozenset[str]
    pattern: re.Pattern[str]
    takes_json: bool


def known_routes(app: FastAPI) -> list[KnownRoute]:
    """Every route, those of included routers too (FastAPI's own walk, the one its OpenAPI document is made from)."""
    routes = []
    for context in iter_route_contexts(app.routes):
        route, path = context.original_route, context.path
        if path is None:
            continue
        websocket = isinstance(route, APIWebSocketRoute | WebSocketRoute)
        methods = frozenset({"WEBSOCKET"}) if websocket else frozenset(context.methods or ())
        takes_json = isinstance(route, APIRoute) and route.body_field is not None
        routes.append(KnownRoute(path, methods, compile_path(path)[0], takes_json))
    return routes


@dataclass
class Target:
    """The resource a request's path names, resolved to its id (jobs are addressed by id or name)."""

    kind: ResourceKind
    id: str
    name: str


class Refusal(Exception):
    def __init__(self, status: int, detail: str, headers: dict[str, str] | None = None):
        self.status = status
        self.detail = detail
        self.headers = headers or {}
        super().__init__(detail)


# ---- dependencies for the routes that need to know who asks ------------------------------------------------------


def current_principal(request: Request) -> Principal:
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


# ---- installation ------------------------------------------------------------------------------------------------


def install_security(app: FastAPI, settings: Settings, api_prefix: str) -> None:
    @app.exception_handler(UnauthenticatedError)
    async def unauthenticated(_request: Request, error: UnauthenticatedError):
        return _error_response(401, str(error), {"www-authenticate": "Bearer"})

    @app.exception_handler(ForbiddenError)
    async def forbidden(_request: Request, error: ForbiddenError):
        return _error_response(403, str(error))

    @app.exception_handler(TooManyAttemptsError)
    async def too_many(_request: Request, error: TooManyAttemptsError):
        return _error_response(429, str(error), {"retry-after": str(error.retry_after)})

    app.add_middleware(AccessControl, settings=settings, api_prefix=api_prefix)


def allowed_host_names(settings: Settings) -> frozenset[str]:
    """Loopback is always allowed (is_loopback); these are the other names the server answers to."""
    names = {name.strip().strip("[]").rstrip(".").lower() for name in settings.allowed_hosts if name.strip()}
    if settings.host not in WILDCARD_BINDS:
        names.add(settings.host.strip("[]").lower())
    return frozenset(names)


class AccessControl:
    def __init__(self, app: ASGIApp, settings: Settings, api_prefix: str):
        self.app = app
        self.api_prefix = api_prefix
        self.host_names = allowed_host_names(settings)
        self.any_host = "*" in self.host_names
        self.origins = frozenset(filter(None, (_origin_key(origin) for origin in settings.allowed_origins)))
        self.public = {("GET", f"{api_prefix}/health"), ("HEAD", f"{api_prefix}/health")}
        self.public.add(("POST", f"{api_prefix}/auth/login"))
        self.routes: list[KnownRoute] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        connection = HTTPConnection(scope)
        try:
            decision = await self._decide(scope, connection)
        except Refusal as refusal:
            await _refuse(scope, send, refusal)
            return
        if decision is None:
            await self.app(scope, receive, send)
            return
        await decision.run(self.app, scope, receive, send)

    async def _decide(self, scope: Scope, connection: HTTPConnection) -> "Decision | None":
        """None when the request may simply go on; a Decision for a change that has to be recorded after it."""
        websocket = scope["type"] == "websocket"
        method = "WEBSOCKET" if websocket else scope["method"]
        self._check_host(connection)
        if websocket or method not in SAFE_METHODS:
            self._check_origin(scope, connection)
        path = scope["path"]
        protected = path == self.api_prefix or path.startswith(f"{self.api_prefix}/") or path == "/openapi.json"
        protected = protected and (method, path) not in self.public
        if protected:  # who asks comes first: an anonymous request learns nothing about the route
            auth: AuthService = scope["app"].state.auth
            principal = await _authenticate(auth, connection)
            scope.setdefault("state", {})["principal"] = principal
        if websocket or method in SAFE_METHODS:
            return None
        if self.routes is None:  # all routes are in place once the first request comes
            self.routes = known_routes(scope["app"])
        route, path_params = _match(self.routes, method, path)
        _check_json_body(route, connection)
        if not protected:
            return None
        template = (route.path if route else path).removeprefix(self.api_prefix)
        access = UNSAFE_ROUTES.get((method, template), MEMBER_ROUTE)
        if access.viewers:
            return None
        if not principal.can_write:
            raise Refusal(403, f"a {principal.role} may read but not change anything")
        platform: Platform = scope["app"].state.platform
        targets = await run_in_threadpool(_check_ownership, auth, platform, principal, path_params)
        return Decision(auth, principal, access, targets, client_address(connection))

    def _check_host(self, connection: HTTPConnection) -> None:
        host = connection.headers.get("host", "")
        name = _host_name(host)
        if self.any_host or is_loopback(name) or name in self.host_names:
            return
        raise Refusal(
            400,
            f"host '{host[:100]}' is not one this server answers to: add it to PLATFORM_ALLOWED_HOSTS "
            "if clients reach the server by that name",
        )

    def _check_origin(self, scope: Scope, connection: HTTPConnection) -> None:
        origin = connection.headers.get("origin")
        if origin is None:
            return  # not sent by a browser's cross-site request: scripts and the CLI send none
        own_scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        own = _origin_key(f"{own_scheme}://{connection.headers.get('host', '')}")
        key = _origin_key(origin)
        if key is not None and (key == own or key in self.origins):
            return
        raise Refusal(
            403,
            f"cross-origin request refused: origin '{origin[:100]}' is not this server's "
            "(add it to PLATFORM_ALLOWED_ORIGINS if it is yours)",
        )


@dataclass
class Decision:
    """A change allowed to go ahead, with what to record once it succeeded."""

    auth: AuthService
    principal: Principal
    access: Access
    targets: list[Target]
    client: str
    status: int = 0
    changes: list[Change] = field(default_factory=list)

    async def run(self, app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                self.status = message["status"]
            await send(message)

        with collect() as self.changes:
            await app(scope, receive, capture)
        if 200 <= self.status < 300:
            try:
                await run_in_threadpool(self.record)
            except Exception:  # the change is done and answered; a lost audit line must not hide it
                log.exception("recording %s by %s failed", self.access.action, self.principal.name)

    def record(self) -> None:
        access, principal = self.access, self.principal
        created = [(c.id, c.name) for c in self.changes if access.creates and c.created and c.kind == access.kind]
        for resource_id, _name in created:
            self.auth.record_owner(access.kind, resource_id, principal)
        if access.deletes:
            for target in self.targets:
                if target.kind == access.kind:
                    self.auth.forget_owner(target.kind, target.id)
        if access.action is not None:
            self._audit_action(created)
        for change in self.changes:  # what became of a job: queued, started, resumed
            if not change.created:
                self.auth.audit(principal.name, change.action, change.kind, change.id, change.name, self.client)

    def _audit_action(self, created: list[tuple[str, str | None]]) -> None:
        access, principal = self.access, self.principal
        created_ids = {resource_id for resource_id, _name in created}
        sources = [f"{t.kind} {t.name}" for t in self.targets if t.id not in created_ids]
        detail = f"from {', '.join(sources)}" if created and sources else ""
        subjects = [(access.kind, resource_id, name) for resource_id, name in created] or [
            (target.kind, target.id, target.name) for target in self.targets
        ]
        for kind, resource_id, name in subjects or [(None, None, None)]:
            self.auth.audit(principal.name, access.action, kind, resource_id, name, self.client, detail)


# ---- the steps -----------------------------------------------------------------------------------------------------


async def _authenticate(auth: AuthService, connection: HTTPConnection) -> Principal:
    header = connection.headers.get("authorization")
    if header is not None:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Refusal(401, "the Authorization header must be 'Bearer <token>'", {"www-authenticate": "Bearer"})
        token, source = token.strip(), CredentialSource.TOKEN
    elif cookie := connection.cookies.get(SESSION_COOKIE):
        token, source = cookie, CredentialSource.SESSION
    else:
        raise Refusal(
            401,
            "authentication required: log in, or send 'Authorization: Bearer <token>'",
            {"www-authenticate": "Bearer"},
        )
    try:
        return await run_in_threadpool(auth.authenticate, token, source)
    except UnauthenticatedError as error:
        raise Refusal(401, str(error), {"www-authenticate": "Bearer"}) from None


def _check_ownership(
    auth: AuthService, platform: Platform, principal: Principal, path_params: dict[str, Any]
) -> list[Target]:
    targets = []
    for parameter, kind in OWNED_PARAMETERS.items():
        if parameter not in path_params:
            continue
        try:
            target, owner = _resolve(auth, platform, kind, str(path_params[parameter]))
        except NotFoundError:
            continue  # the route answers 404 itself (or, importing metrics, makes the job)
        try:
            auth.check_may_change(principal, kind, owner, target.name)
        except ForbiddenError as error:
            raise Refusal(403, str(error)) from None
        targets.append(target)
    return targets


def _resolve(auth: AuthService, platform: Platform, kind: ResourceKind, name_or_id: str) -> tuple[Target, str | None]:
    """The resource and its owner. A derived dataset without an owner of its own belongs to its parent's."""
    if kind == ResourceKind.JOB:
        job = platform.jobs.find(name_or_id)
        return Target(kind, job.id, job.name), auth.owner_of(kind, job.id)
    if kind == ResourceKind.MODEL:
        model = platform.models.get(name_or_id)
        return Target(kind, model.id, model.name), auth.owner_of(kind, model.id)
    dataset = platform.datasets.get(name_or_id)
    target, owner, step = Target(kind, dataset.id, dataset.name), auth.owner_of(kind, dataset.id), 0
    while owner is None and dataset.parent_id and step < MAX_LINEAGE_STEPS:
        try:
            dataset = platform.datasets.get(dataset.parent_id)
        except NotFoundError:
            break
        owner, step = auth.owner_of(kind, dataset.id), step + 1
    return target, owner


def _check_json_body(route: KnownRoute | None, connection: HTTPConnection) -> None:
    """A route that reads a JSON body refuses any other: a browser may post text/plain and forms across sites
    without asking first (a "simple" request), never application/json. Raw uploads take any type."""
    if route is None or not route.takes_json:
        return
    headers = connection.headers
    if headers.get("content-length", "0") == "0" and "transfer-encoding" not in headers:
        return  # no body: the route answers for a missing one
    media_type = headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json" and not media_type.endswith("+json"):
        raise Refusal(415, "this route takes JSON: send the body with 'content-type: application/json'")


def _match(routes: list[KnownRoute], method: str, path: str) -> tuple[KnownRoute | None, dict[str, str]]:
    for route in routes:
        if method in route.methods and (found := route.pattern.match(path)):
            return route, found.groupdict()
    return None, {}


def _host_name(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        host = host.rsplit(":", 1)[0]
    return host.rstrip(".")


def _origin_key(origin: str) -> tuple[str, str, int] | None:
    """An origin as (scheme, host, port), default ports filled in; None for anything else ('null' included)."""
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.rstrip("."), port or DEFAULT_PORTS[parts.scheme]


def _error_response(status: int, detail: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(status_code=status, content={"detail": detail, "errors": []}, headers=headers)


async def _refuse(scope: Scope, send: Send, refusal: Refusal) -> None:
    if scope["type"] == "http":
        await _error_response(refusal.status, refusal.detail, refusal.headers)(scope, _no_body, send)
        return
    # A WebSocket is refused during its handshake: with the HTTP status and the same JSON body where the server
    # supports it (uvicorn does), else with close code 1008 (policy violation), which clients see as a 403.
    if "websocket.http.response" in scope.get("extensions", {}):
        body = json.dumps({"detail": refusal.detail, "errors": []}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        headers += [(name.encode(), value.encode()) for name, value in refusal.headers.items()]
        await send({"type": "websocket.http.response.start", "status": refusal.status, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
    else:
        await send({"type": "websocket.close", "code": 1008, "reason": refusal.detail[:120]})


async def _no_body() -> Message:
    return {"type": "http.disconnect"}
