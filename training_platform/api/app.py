"""The FastAPI application: `uvicorn --factory training_platform.api.app:create_app`, or `tplat serve`."""

import asyncio
import logging
from contextlib import asynccontextmanager

from fastapi import FastAPI

from training_platform import __version__
from training_platform.api.errors import install_error_handlers
from training_platform.api.limits import install_limits
from training_platform.api.routers import (
    alerts,
    algorithms,
    auth,
    compute,
    datasets,
    demo,
    engines,
    health,
    jobs,
    models,
    monitoring,
    system,
)
from training_platform.api.security import install_security
from training_platform.api.web import install_web
from training_platform.auth.service import AuthService
from training_platform.auth.setup import create_first_admin, open_auth, server_url, startup_refusal
from training_platform.demo.install import install_demo
from training_platform.platform import Platform
from training_platform.settings import Settings, get_settings

log = logging.getLogger(__name__)
API_PREFIX = "/api/v1"


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        platform = Platform.open(settings)
        app.state.auth = _open_auth(platform, settings)
        platform.metrics.hub.bind(asyncio.get_running_loop())
        # In a thread: settling a job whose process ended meanwhile stores its metrics through this loop.
        await asyncio.to_thread(platform.jobs.recover)
        platform.supervisor.start_stall_watch()
        platform.datasets.recover()
        platform.alerts.start()  # what the last server left pending goes out first
        if settings.demo:
            install_demo(platform)
        app.state.platform = platform
        log.info("platform ready: home %s, database %s", settings.home, platform.db.engine.url.get_backend_name())
        yield
        # Training processes are deliberately left running: the next start re-attaches to them.
        await platform.metrics.stop_following()
        platform.close()

    app = FastAPI(
        title="Training Platform",
        version=__version__,
        description="Launch, watch and control LLM post-training jobs (SFT, DPO, GRPO, GSPO, PPO).",
        lifespan=lifespan,
        # Served by install_web from the platform's own copy of Swagger UI; FastAPI's defaults load it from a CDN.
        docs_url=None,
        redoc_url=None,
    )
    install_error_handlers(app)
    install_limits(app, settings)
    install_security(app, settings, API_PREFIX)
    for router in (
        system.router,
        auth.router,
        jobs.router,
        algorithms.router,
        monitoring.router,
        health.router,
        alerts.router,
        compute.router,
        models.router,
        datasets.router,
        engines.router,
        demo.router,
    ):
        app.include_router(router, prefix=API_PREFIX)
    install_web(app, API_PREFIX)
    return app


def _open_auth(platform: Platform, settings: Settings) -> AuthService:
    """The auth service; on a loopback server's first start, the first admin. A server that must not start
    (docs/security.md) stops here, before it recovers a job or answers a request."""
    auth = open_auth(platform.db, settings)
    password_file = create_first_admin(auth, settings)
    if password_file is not None:
        log.warning(
            "first start: log in at %s as admin with the password in %s",
            server_url(settings.host, settings.port),
            password_file,
        )
    if refusal := startup_refusal(settings, auth.has_enabled_users()):
        platform.close()
        log.error(refusal)
        raise RuntimeError(refusal)
    auth.prune()
    return auth
