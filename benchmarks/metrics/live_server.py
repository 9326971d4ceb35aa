"""The platform's server, plus one route that makes it follow BENCH_JOBS metrics files exactly as it
follows the files of the jobs it launches (the same `job_started` call), without training processes
competing for the two cores. Used by `benchmarks.metrics.run` for the live latency figure."""

import logging
import os

import uvicorn

from training_platform.api.app import create_app
from training_platform.contract.layout import JobLayout
from training_platform.settings import get_settings

app = create_app()
followed: dict[str, str] = {}


@app.get("/bench/files")
def bench_files() -> dict[str, str]:
    platform = app.state.platform
    if not followed:
        for index in range(int(os.environ.get("BENCH_JOBS", "10"))):
            job = platform.jobs.get_or_create_external(f"bench-{index}", source="benchmark writer")
            followed[job.id] = str(JobLayout(job.id, platform.settings.jobs_dir / job.id).metrics_path)
            platform.metrics.job_started(job)
    return followed


# The web UI's catch-all answers every GET path registered before it; this route has to come first.
app.router.routes.insert(0, app.router.routes.pop())


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    settings = get_settings()
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning")
