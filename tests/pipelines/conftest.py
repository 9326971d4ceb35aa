"""What the pipeline tests share: a real server without a Celery broker (its stages run on its own threads) whose
registry holds the demo assets under the names the templates use, and ways to wait for a pipeline and to count
the jobs it made."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.helpers import ServerProcess, wait_until

DEMO_MODEL = "demo-tiny-qwen2"  # the names `tplat serve --demo` registers, which the templates reference
DEMO_DATASETS = ("demo-sft", "demo-dpo", "demo-grpo", "demo-eval")
# A stage's task polls its work every lease/3 seconds: a short lease settles stages soon after their jobs end, and
# a task killed with its server is replaced soon after.
LEASE_SECONDS = 3
ENDED = ("completed", "failed", "cancelled")


def pipeline_server(home: Path) -> ServerProcess:
    """A server (not started) whose pipeline stages run on its threads: no PLATFORM_CELERY_BROKER_URL."""
    server = ServerProcess(home=home)
    server.env.pop("PLATFORM_CELERY_BROKER_URL", None)
    server.env["PLATFORM_PIPELINE_LEASE_SECONDS"] = str(LEASE_SECONDS)
    return server


def register_demo_assets(server: ServerProcess, demo_assets: dict[str, Path]) -> None:
    """The demo model and datasets under their demo names, as `tplat serve --demo` registers them."""
    response = server.api.post("/models", json={"name": DEMO_MODEL, "path": str(demo_assets["model"])})
    assert response.status_code == 201, response.text
    for name in DEMO_DATASETS:
        kind = name.removeprefix("demo-")
        response = server.api.post("/datasets", json={"name": name, "path": str(demo_assets[kind]), "kind": kind})
        assert response.status_code == 201, response.text


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory, demo_assets) -> Iterator[ServerProcess]:
    """One in-process server per module, with the demo assets registered."""
    home = tmp_path_factory.mktemp("pipelines") / "home"
    home.mkdir()
    server = pipeline_server(home)
    server.start()
    try:
        register_demo_assets(server, demo_assets)
        yield server
    finally:
        server.shutdown()


def pipeline(server: ServerProcess, name: str) -> dict:
    response = server.api.get(f"/pipelines/{name}")
    assert response.status_code == 200, response.text
    return response.json()


def stages_of(read: dict) -> dict[str, dict]:
    return {stage["name"]: stage for stage in read["stages"]}


def shown(read: dict) -> tuple:
    """A pipeline as an assertion shows it: its status and error, and each stage's status, attempt and error."""
    return read["status"], read["error"], [(s["name"], s["status"], s["attempt"], s["error"]) for s in read["stages"]]


def wait_for_pipeline(server: ServerProcess, name: str, *statuses: str, timeout: float = 120) -> dict:
    """The pipeline once its status is one of `statuses` (by default any it ends in)."""
    wanted = statuses or ENDED

    def reached() -> dict | None:
        read = pipeline(server, name)
        return read if read["status"] in wanted else None

    return wait_until(reached, timeout, interval=0.3, message=f"pipeline {name} to become {'/'.join(wanted)}")


def wait_for_stage(server: ServerProcess, name: str, stage: str, predicate, timeout: float = 120) -> dict:
    """The stage once `predicate(stage)` holds."""

    def reached() -> dict | None:
        found = stages_of(pipeline(server, name))[stage]
        return found if predicate(found) else None

    return wait_until(reached, timeout, interval=0.3, message=f"stage {stage} of {name}")


def create(server: ServerProcess, text: str | None = None, definition: dict | None = None, start: bool = True) -> dict:
    body: dict = {"text": text} if text is not None else {"definition": definition}
    response = server.api.post("/pipelines", json={**body, "start": start})
    assert response.status_code == 201, response.text
    return response.json()


def jobs(server: ServerProcess) -> list[dict]:
    """Every job in the database (GET /jobs reads the jobs table)."""
    response = server.api.get("/jobs", params={"limit": 1000})
    assert response.status_code == 200, response.text
    return response.json()


def job_names(server: ServerProcess) -> list[str]:
    return sorted(job["name"] for job in jobs(server))
