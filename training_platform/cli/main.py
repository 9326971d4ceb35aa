"""Entry point of `tplat`."""

import logging
from typing import Annotated

import typer
from rich.console import Console

from training_platform.cli import compute, datasets, jobs, metrics, verl
from training_platform.settings import get_settings

app = typer.Typer(help="Training Platform: post-train LLMs on your own machines.", no_args_is_help=True)
app.add_typer(jobs.app, name="jobs")
app.add_typer(metrics.app, name="metrics")
app.add_typer(compute.app, name="compute")
app.add_typer(datasets.app, name="datasets")
app.add_typer(verl.app, name="verl")
db_app = typer.Typer(help="Database maintenance.", no_args_is_help=True)
app.add_typer(db_app, name="db")
console = Console()


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Interface to bind (default PLATFORM_HOST, 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default PLATFORM_PORT, 8000).")] = None,
) -> None:
    """Serve the API (and web UI) until interrupted; running jobs survive a restart."""
    import uvicorn

    settings = get_settings()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("watchfiles").setLevel(logging.WARNING)  # it logs every file event at INFO
    console.print(f"serving on http://{host or settings.host}:{port or settings.port} (home {settings.home})")
    uvicorn.run(
        "training_platform.api.app:create_app",
        factory=True,
        host=host or settings.host,
        port=port or settings.port,
        log_level="info",
    )


@app.command()
def demo() -> None:
    """Create the offline demo model and datasets, register them, and add a pending SFT job."""
    from training_platform.demo.install import install_demo
    from training_platform.platform import Platform

    platform = Platform.open(get_settings())
    try:
        summary = install_demo(platform)
    finally:
        platform.close()
    for item in summary.created:
        console.print(f"created {item}")
    console.print(f"demo model: {summary.model_path}")
    for name, path in summary.datasets.items():
        console.print(f"dataset {name}: {path}")
    console.print(f"start the demo job with: tplat jobs start {summary.job_name} --follow")


@db_app.command()
def upgrade() -> None:
    """Bring the database schema to the newest revision (also done at every start)."""
    from training_platform.db import Database

    settings = get_settings()
    Database(settings.database_url).upgrade()
    console.print(f"database at {settings.database_url} is up to date")


if __name__ == "__main__":
    app()
