"""A job's row → what its run is: its directory layout, its RunSpec, its activity (for the stall watch)."""

from pathlib import Path

from training_platform.contract.health import HealthSettings
from training_platform.contract.layout import JobLayout
from training_platform.contract.run import RunSpec, parse_run_params
from training_platform.db.tables import Job
from training_platform.jobs.activity import JobActivity
from training_platform.runners.base import Runner

# Engine, algorithm and run mode of a job whose metrics were imported from a run the platform did not launch.
EXTERNAL = "external"


def layout_of(job: Job) -> JobLayout:
    return JobLayout(job.id, Path(job.output_dir))


def run_spec(job: Job, runner: Runner, cpu_threads: int = 0) -> RunSpec:
    """The job's run as the runner that will start it places it: in its cluster, over the nodes it chooses."""
    return RunSpec(
        job_id=job.id,
        model_path=job.model_path,
        dataset_paths=job.dataset_paths,
        eval_dataset_path=job.eval_dataset_path,
        dataset_formats=job.dataset_formats,
        params=parse_run_params(job.algorithm, job.params),
        output_dir=job.output_dir,
        run_mode=job.run_mode,
        nnodes=runner.nodes_for(requested_gpus(job)),
        in_ray_cluster=runner.in_ray_cluster,
        cpu_threads=cpu_threads,
        health=HealthSettings.model_validate(job.health_settings),
        engine_settings=job.engine_settings,
    )


def requested_gpus(job: Job) -> int:
    """The devices the job asked for (its validated parameters always say; 1 is the parameters' default)."""
    return job.params.get("num_gpus", 1)


def activity_of(job: Job) -> JobActivity:
    layout = layout_of(job)
    return JobActivity(
        logs=[layout.stdout_path, layout.stderr_path],
        progress_files=[layout.status_path, layout.metrics_path],
        started_at=job.process_started_at or 0.0,
    )
