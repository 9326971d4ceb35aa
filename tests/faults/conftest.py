"""Fault tests: the platform's pieces wired by hand on SQLite and PostgreSQL (no composition root), and real
servers."""

import uuid
from pathlib import Path

import pytest

from training_platform.db import Database
from training_platform.db.tables import Job
from training_platform.jobs.states import JobStatus
from training_platform.jobs.store import JobStore


@pytest.fixture
def db(database_url):
    database = Database(database_url)
    database.upgrade()
    yield database
    database.dispose()


@pytest.fixture
def jobs(db) -> JobStore:
    return JobStore(db)


def add_job(store: JobStore, root: Path, status: JobStatus = JobStatus.COMPLETED, **fields) -> Job:
    """A job row (and its directory) as the jobs service would have made it."""
    job_id = uuid.uuid4().hex
    defaults = dict(
        id=job_id,
        name=f"fault-{job_id[:8]}",
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
    return store.add(job, "made by a fault test")
