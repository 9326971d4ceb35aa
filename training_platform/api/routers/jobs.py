from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request, Response, status
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse

from training_platform.api.deps import LanguageDep, PlatformDep
from training_platform.jobs.schemas import (
    CheckpointRead,
    JobCreate,
    JobEventRead,
    JobPreview,
    JobRead,
    JobTaskRead,
    LogTail,
)
from training_platform.jobs.spec import JobFile, JobFileCreate
from training_platform.jobs.states import JobStatus
from training_platform.trackers.schemas import TrackerExportRead

router = APIRouter(prefix="/jobs", tags=["jobs"])
Stream = Literal["stdout", "stderr"]


async def every_problem_at_once(request: Request, platform: PlatformDep) -> None:
    """A body that is no valid JobCreate is refused with every problem of it: FastAPI, which validates the body
    after this dependency, would name only the fields pydantic refuses (a bad name), and the parameters and data
    would wait for a second submission."""
    try:
        document = await request.json()
    except ValueError:  # no body, or no JSON: FastAPI's own answer says what is needed
        return
    await run_in_threadpool(platform.jobs.refuse_invalid, document)


@router.post("", status_code=status.HTTP_201_CREATED, dependencies=[Depends(every_problem_at_once)])
def create_job(body: JobCreate, platform: PlatformDep) -> JobRead:
    return platform.jobs.create(body)


@router.post("/spec", status_code=status.HTTP_201_CREATED)
def create_job_from_file(body: JobFileCreate, platform: PlatformDep) -> JobRead:
    """A job from its job file (YAML or JSON: POST /jobs's fields and each data file's format; docs/jobs.md); a
    422 names each problem's field and its line in the file."""
    return platform.jobs.create_from_file(body)


@router.post("/preview", dependencies=[Depends(every_problem_at_once)])
def preview_job(body: JobCreate, platform: PlatformDep) -> JobPreview:
    """What the job would run, checked as POST /jobs checks it: its engine's configuration (engine settings
    included) and its process's command on this server's devices. Nothing is created, written or started."""
    return platform.jobs.preview(body)


@router.post("/spec/preview")
def preview_job_file(body: JobFileCreate, platform: PlatformDep) -> JobPreview:
    """POST /jobs/preview for a job file; a 422 names each problem's field and its line in the file."""
    return platform.jobs.preview_from_file(body)


@router.get("")
def list_jobs(
    platform: PlatformDep,
    status_filter: Annotated[list[JobStatus], Query(alias="status")] = [],  # noqa: B006 (FastAPI copies it)
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=2**62)] = 0,
) -> list[JobRead]:
    return platform.jobs.list_jobs(status_filter, limit, offset)


@router.get("/{job}")
def get_job(job: str, platform: PlatformDep) -> JobRead:
    return platform.jobs.get(job)


@router.get("/{job}/trackers")
def job_tracker_exports(job: str, platform: PlatformDep) -> list[TrackerExportRead]:
    """Where each export of the job's metrics to a tracker stands: the last step the tracker took, failures and the
    last error, when it tries again (docs/trackers.md). Empty until the job has steps, or when it exports nowhere."""
    return platform.trackers.exports(platform.jobs.get(job).id)


@router.get("/{job}/spec")
def job_file(job: str, platform: PlatformDep) -> JobFile:
    """The job file (YAML) that creates this job again (POST /jobs/spec, under another name)."""
    return platform.jobs.job_file(job)


@router.delete("/{job}", status_code=status.HTTP_204_NO_CONTENT)
def delete_job(job: str, platform: PlatformDep, delete_files: bool = False) -> Response:
    platform.jobs.delete(job, delete_files)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/{job}/start")
def start_job(job: str, platform: PlatformDep) -> JobRead:
    """Runs the job on the GPUs it asks for, or queues it (status `queued`) while they are busy; 422 when it asks
    for more GPUs than the server has."""
    return platform.jobs.start(job)


@router.post("/{job}/pause", status_code=status.HTTP_202_ACCEPTED)
def pause_job(job: str, platform: PlatformDep) -> JobRead:
    """Accepted: the trainer saves a checkpoint at its next step and exits; then the job is paused."""
    return platform.jobs.pause(job)


@router.post("/{job}/resume")
def resume_job(
    job: str,
    platform: PlatformDep,
    learning_rate: Annotated[
        float | None, Query(description="Resume with this learning rate (TRL jobs; after a NaN pause, say).")
    ] = None,
) -> JobRead:
    """From the latest complete checkpoint; queued, or refused, as a start is."""
    return platform.jobs.resume(job, learning_rate)


@router.post("/{job}/stop")
def stop_job(job: str, platform: PlatformDep) -> JobRead:
    """Returns once the process group is gone (SIGTERM, then SIGKILL after the grace period)."""
    return platform.jobs.stop(job)


@router.get("/{job}/events")
def job_events(job: str, platform: PlatformDep, language: LanguageDep) -> list[JobEventRead]:
    return platform.jobs.events(job, language)


@router.get("/{job}/checkpoints")
def job_checkpoints(job: str, platform: PlatformDep) -> list[CheckpointRead]:
    return platform.jobs.checkpoints(job)


@router.post("/{job}/checkpoints/{checkpoint}/export", status_code=status.HTTP_202_ACCEPTED)
def export_checkpoint(job: str, checkpoint: str, platform: PlatformDep) -> JobTaskRead:
    """Start writing a checkpoint as a Hugging Face model directory (verl: through verl's model merger); follow
    the task at GET /jobs/{job}/tasks/{task}, whose result names the directory."""
    return platform.jobs.export(job, checkpoint)


@router.get("/{job}/tasks")
def job_tasks(job: str, platform: PlatformDep) -> list[JobTaskRead]:
    return platform.jobs.list_tasks(job)


@router.get("/{job}/tasks/{task}")
def job_task(job: str, task: str, platform: PlatformDep) -> JobTaskRead:
    return platform.jobs.task(job, task)


@router.get("/{job}/logs")
def job_logs(
    job: str,
    platform: PlatformDep,
    stream: Stream = "stdout",
    lines: Annotated[int, Query(ge=1, le=100_000)] = 200,
    contains: Annotated[str | None, Query(min_length=1, max_length=1000)] = None,
) -> LogTail:
    return LogTail(stream=stream, lines=platform.jobs.log_tail(job, stream, lines, contains))


@router.get("/{job}/logs/download")
def download_job_log(job: str, platform: PlatformDep, stream: Stream = "stdout") -> FileResponse:
    path, filename = platform.jobs.log_path(job, stream)
    return FileResponse(path, media_type="text/plain", filename=filename)
