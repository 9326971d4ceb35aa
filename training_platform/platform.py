"""Wires the services together from the settings; the API and the CLI both start from here."""

from dataclasses import dataclass

from training_platform.datasets.registry import DatasetRegistry
from training_platform.db import Database
from training_platform.jobs.service import JobService
from training_platform.jobs.store import JobStore
from training_platform.jobs.supervisor import JobSupervisor
from training_platform.models.registry import ModelRegistry
from training_platform.runners.local import LocalRunner
from training_platform.settings import Settings


@dataclass
class Platform:
    settings: Settings
    db: Database
    jobs: JobService
    supervisor: JobSupervisor
    models: ModelRegistry
    datasets: DatasetRegistry

    @classmethod
    def open(cls, settings: Settings) -> "Platform":
        """Connect to the database and bring its schema up to date (`alembic upgrade head`)."""
        settings.home.mkdir(parents=True, exist_ok=True)
        db = Database(settings.database_url)
        db.upgrade()
        store = JobStore(db)
        supervisor = JobSupervisor(store, LocalRunner(), settings.stop_grace_seconds, settings.train_cpu_threads)
        return cls(
            settings=settings,
            db=db,
            jobs=JobService(store, supervisor, settings.jobs_dir, settings.dataset_error_limit),
            supervisor=supervisor,
            models=ModelRegistry(db),
            datasets=DatasetRegistry(db, settings.dataset_error_limit),
        )

    def close(self) -> None:
        self.db.dispose()
