"""A job row as the jobs service would have made it, for tests that wire the platform's pieces by hand; the body of
a demo SFT job, for tests that create one through the API; the parameters of the repository's example job files
(examples/), which the end-to-end tests train with: each example is run by the tests that way."""

import uuid
from pathlib import Path

import yaml

from training_platform.db.tables import Job
from training_platform.jobs.states import JobStatus
from training_platform.jobs.store import JobStore


def add_job(store: JobStore, root: Path, status: JobStatus = JobStatus.COMPLETED, **fields) -> Job:
    """A job row in `store`, its directory under `root`."""
    job_id = uuid.uuid4().hex
    defaults = dict(
        id=job_id,
        name=f"test-{job_id[:8]}",
        algorithm="sft",
        engine="trl",
        model_path="/models/m",
        dataset_paths=["/data/d.jsonl"],
        params={"max_steps": 3},
        status=status.value,
        output_dir=str(root / job_id),
    )
    job = Job(**{**defaults, **fields})
    Path(job.output_dir).mkdir(parents=True, exist_ok=True)
    return store.add(job, "made by a test")


EXAMPLES = Path(__file__).parents[2] / "examples"


def example_params(name: str) -> dict:
    """The params of examples/<name>.yaml."""
    return yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text())["params"]


def sft_body(demo_assets, name: str, **params) -> dict:
    """A demo SFT job's body (POST /jobs): the session's demo model and data, `params` over examples/trl-sft.yaml's."""
    defaults = example_params("trl-sft")
    return dict(
        name=name,
        algorithm="sft",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        params={**defaults, **params},
    )
