"""Entry point of `tplat`.

Every command talks to a running platform over its HTTP API (PLATFORM_URL), except the ones that work on this
machine alone: `serve` (which is the platform), `db upgrade` (run before any server exists), and `datasets audit
FILE` (a local file checked right here).
"""

import logging
import os
from typing import Annotated

import typer

from training_platform.cli import (
    auth,
    chat,
    compute,
    datasets,
    evaluations,
    hosts,
    jobs,
    metrics,
    models,
    pipelines,
    secrets,
    surgery,
    verl,
)
from training_platform.cli.common import client, console, err_console
from training_platform.settings import get_settings

app = typer.Typer(help="Training Platform: post-train LLMs on your own machines.", no_args_is_help=True)
app.add_typer(jobs.app, name="jobs")
app.add_typer(metrics.app, name="metrics")
app.add_typer(compute.app, name="compute")
app.add_typer(datasets.app, name="datasets")
app.add_typer(models.app, name="models")
app.add_typer(surgery.app, name="surgery")
app.add_typer(evaluations.app, name="eval")
app.add_typer(secrets.app, name="secrets")
app.add_typer(hosts.app, name="hosts")
app.add_typer(pipelines.app, name="pipelines")
app.command("worker")(pipelines.worker)
app.command("chat")(chat.chat)
app.add_typer(verl.app, name="verl")
app.add_typer(auth.app, name="auth")
db_app = typer.Typer(help="Database maintenance (on this machine, no server needed).", no_args_is_help=True)
app.add_typer(db_app, name="db")


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Interface to bind (default PLATFORM_HOST, 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default PLATFORM_PORT, 8000).")] = None,
    demo: Annotated[bool, typer.Option("--demo", help="Install the offline demo at start (as `tplat demo`).")] = False,
) -> None:
    """Serve the API (and web UI) until interrupted; running jobs survive a restart."""
    import uvicorn

    from training_platform.auth.setup import refusal_before_start, server_url

    # Read by the app's settings, in this process: the Host allow-list and the first start need the bound address.
    if demo:
        os.environ["PLATFORM_DEMO"] = "1"
    if host:
        os.environ["PLATFORM_HOST"] = host
    if port:
        os.environ["PLATFORM_PORT"] = str(port)
    get_settings.cache_clear()
    settings = get_settings()
    if refusal := refusal_before_start(settings):
        err_console.print(f"[red]{refusal}[/red]")
        raise typer.Exit(2)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("watchfiles").setLevel(logging.WARNING)  # it logs every file event at INFO
    console.print(f"serving on {server_url(settings.host, settings.port)} (home {settings.home})")
    uvicorn.run(
        "training_platform.api.app:create_app",
        factory=True,
        host=settings.host,
        port=settings.port,
        log_level="info",
        # Clients send only small control messages; uvicorn would otherwise buffer up to 16 MiB of one.
        ws_max_size=64 * 1024,
    )


@app.command()
def demo() -> None:
    """Create the offline demo model and datasets on the server, register them, and add a pending SFT job."""
    summary = client().post("/demo", timeout=600)
    for item in summary["created"]:
        console.print(f"created {item}")
    console.print(f"demo model: {summary['model_path']}")
    for name, path in summary["datasets"].items():
        console.print(f"dataset {name}: {path}")
    console.print(f"start the demo job with: tplat jobs start {summary['job_name']} --follow")


@db_app.command()
def upgrade() -> None:
    """Bring the database schema to the newest revision (also done at every start)."""
    from sqlalchemy.engine import make_url

    from training_platform.db import Database

    settings = get_settings()
    Database(settings.database_url).upgrade()
    url = make_url(settings.database_url).render_as_string(hide_password=True)
    console.print(f"database at {url} is up to date")


if __name__ == "__main__":
    app()
