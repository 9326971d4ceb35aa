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

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from training_platform.api.access import MEMBER_ROUTE, SAFE_METHODS, UNSAFE_ROUTES
from training_platform.api.audit import Decision
from training_platform.api.auth_deps import client_address
from training_platform.api.authentication import authenticate
from training_platform.api.json_body import check_json_body
from training_platform.api.origins import HostAndOriginChecks
from training_platform.api.ownership import check_ownership
from training_platform.api.refusal import Refusal, error_response, refuse
from training_platform.api.routing import KnownRoute, known_routes, match_route
from training_platform.auth.errors import ForbiddenError, TooManyAttemptsError, UnauthenticatedError
from training_platform.auth.service import AuthService
from training_platform.platform import Platform
from training_platform.settings import Settings

# ---- installation ------------------------------------------------------------------------------------------------


def install_security(app: FastAPI, settings: Settings, api_prefix: str) -> None:
    @app.exception_handler(UnauthenticatedError)
    async def unauthenticated(_request: Request, error: UnauthenticatedError):
        return error_response(401, str(error), {"www-authenticate": "Bearer"})

    @app.exception_handler(ForbiddenError)
    async def forbidden(_request: Request, error: ForbiddenError):
        return error_response(403, str(error))

    @app.exception_handler(TooManyAttemptsError)
    async def too_many(_request: Request, error: TooManyAttemptsError):
        return error_response(429, str(error), {"retry-after": str(error.retry_after)})

    app.add_middleware(AccessControl, settings=settings, api_prefix=api_prefix)


class AccessControl:
    def __init__(self, app: ASGIApp, settings: Settings, api_prefix: str):
        self.app = app
        self.api_prefix = api_prefix
        self.host_and_origin = HostAndOriginChecks(settings)
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
            await refuse(scope, send, refusal)
            return
        if decision is None:
            await self.app(scope, receive, send)
            return
        await decision.run(self.app, scope, receive, send)

    async def _decide(self, scope: Scope, connection: HTTPConnection) -> Decision | None:
        """None when the request may simply go on; a Decision for a change that has to be recorded after it."""
        websocket = scope["type"] == "websocket"
        method = "WEBSOCKET" if websocket else scope["method"]
        self.host_and_origin.check_host(connection)
        if websocket or method not in SAFE_METHODS:
            self.host_and_origin.check_origin(scope, connection)
        path = scope["path"]
        protected = path == self.api_prefix or path.startswith(f"{self.api_prefix}/") or path == "/openapi.json"
        protected = protected and (method, path) not in self.public
        if protected:  # who asks comes first: an anonymous request learns nothing about the route
            auth: AuthService = scope["app"].state.auth
            principal = await authenticate(auth, connection)
            scope.setdefault("state", {})["principal"] = principal
        if websocket or method in SAFE_METHODS:
            return None
        if self.routes is None:  # all routes are in place once the first request comes
            self.routes = known_routes(scope["app"])
        route, path_params = match_route(self.routes, method, path)
        check_json_body(route, connection)
        if not protected:
            return None
        template = (route.path if route else path).removeprefix(self.api_prefix)
        access = UNSAFE_ROUTES.get((method, template), MEMBER_ROUTE)
        if access.viewers:
            return None
        if not principal.can_write:
            raise Refusal(403, f"a {principal.role} may read but not change anything")
        platform: Platform = scope["app"].state.platform
        targets = await run_in_threadpool(check_ownership, auth, platform, principal, path_params)
        return Decision(auth, principal, access, targets, client_address(connection))
