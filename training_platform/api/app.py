"""The FastAPI application: `uvicorn --factory training_platform.api.app:create_app`, or `tplat serve`."""

from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.routing import APIRoute
from starlette.middleware.gzip import GZipMiddleware

from training_platform import __version__
from training_platform.api.errors import ErrorBody, install_error_handlers
from training_platform.api.limits import install_limits
from training_platform.api.routers import (
    alerts,
    algorithms,
    auth,
    compute,
    datasets,
    demo,
    engines,
    evaluations,
    health,
    hosts,
    jobs,
    models,
    monitoring,
    pipelines,
    playground,
    rewards,
    secrets,
    surgery,
    system,
)
from training_platform.api.security import install_security
from training_platform.api.web import install_web
from training_platform.demo.install import install_demo
from training_platform.platform import Platform
from training_platform.settings import Settings, get_settings

API_PREFIX = "/api/v1"


def _operation_id(route: APIRoute) -> str:
    """The handler's name, unique across the app (api/openapi.py fails on a duplicate): the generated Python client
    names its functions after it (docs/client.md), `jobs.create_job` rather than `create_job_api_v1_jobs_post`."""
    return route.name


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        platform = Platform.open(settings)
        try:
            await platform.start()
        except BaseException:
            platform.close()
            raise
        if settings.demo:
            install_demo(platform)
        app.state.platform, app.state.auth = platform, platform.auth
        yield
        await platform.stop()

    app = FastAPI(
        title="Training Platform",
        version=__version__,
        description="Launch, watch and control LLM post-training jobs (SFT, DPO, GRPO, GSPO, PPO).",
        lifespan=lifespan,
        # Served by install_web from the platform's own copy of Swagger UI; FastAPI's defaults load it from a CDN.
        docs_url=None,
        redoc_url=None,
        generate_unique_id_function=_operation_id,
        responses={422: {"model": ErrorBody, "description": "Invalid input: what is wrong with each field"}},
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
        surgery.router,
        datasets.router,
        engines.router,
        demo.router,
        secrets.router,
        hosts.router,
        pipelines.router,
        evaluations.router,
        playground.router,
        rewards.router,
    ):
        app.include_router(router, prefix=API_PREFIX)
    install_web(app, API_PREFIX)
    # The UI's bundles are ~2.3 MB as built and ~0.7 MB gzipped, and API JSON shrinks as much. Level 6 is most of
    # level 9's gain for a fraction of its CPU; Starlette leaves event streams (the playground) and media alone
    # and flushes each chunk of a streamed body.
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)
    return app
