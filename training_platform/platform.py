"""Wires the services together from the settings; the API and the CLI both start from here."""

from dataclasses import dataclass

from training_platform.compute.service import ComputeService
from training_platform.datasets.service import DatasetService
from training_platform.datasets.storage import DatasetStorage
from training_platform.datasets.store import DatasetStore
from training_platform.datasets.vectors import Embedder, VectorStore
from training_platform.db import Database
from training_platform.jobs.service import JobService
from training_platform.jobs.store import JobStore
from training_platform.jobs.supervisor import JobSupervisor
from training_platform.metrics.service import MetricsService
from training_platform.metrics.store import MetricStore
from training_platform.models.service import ModelService
from training_platform.models.store import ModelStore
from training_platform.runners.base import Runner
from training_platform.runners.local import LocalRunner
from training_platform.runners.ray import RayRunner
from training_platform.settings import Settings


@dataclass
class Platform:
    settings: Settings
    db: Database
    jobs: JobService
    supervisor: JobSupervisor
    models: ModelService
    datasets: DatasetService
    metrics: MetricsService
    compute: ComputeService

    @classmethod
    def open(cls, settings: Settings) -> "Platform":
        """Connect to the database and bring its schema up to date (`alembic upgrade head`)."""
        settings.home.mkdir(parents=True, exist_ok=True)
        db = Database(settings.database_url)
        db.upgrade()
        models = ModelService(ModelStore(db))
        datasets = DatasetService(
            DatasetStore(db),
            DatasetStorage(settings.datasets_dir, settings.dataset_max_upload_bytes),
            models,
            VectorStore(settings.vector_uri, settings.milvus_token),
            Embedder(settings.embedding_batch_size, settings.embedding_cpu_threads),
            settings.dataset_error_limit,
        )
        store = JobStore(db)
        supervisor = JobSupervisor(
            store,
            _runners(settings),
            settings.stop_grace_seconds,
            settings.train_cpu_threads,
            settings.job_stall_seconds,
        )
        jobs = JobService(store, supervisor, settings.jobs_dir, settings.dataset_error_limit, datasets.resolve)
        metrics = MetricsService(
            MetricStore(db),
            jobs,
            settings.metrics_flush_records,
            settings.metrics_flush_seconds,
            settings.metrics_max_import_bytes,
        )
        supervisor.listeners.append(metrics)
        return cls(
            settings=settings,
            db=db,
            jobs=jobs,
            supervisor=supervisor,
            models=models,
            datasets=datasets,
            metrics=metrics,
            compute=ComputeService(),
        )

    @property
    def run_modes(self) -> list[str]:
        """The run modes jobs can use here (`ray` once PLATFORM_RAY_ADDRESS names a cluster)."""
        return list(self.supervisor.runners)

    def close(self) -> None:
        self.jobs.close()
        self.datasets.close()
        self.db.dispose()


def _runners(settings: Settings) -> dict[str, Runner]:
    runners: dict[str, Runner] = {"local": LocalRunner()}
    if settings.ray_address:
        token = settings.ray_auth_token_file.read_text().strip() if settings.ray_auth_token_file else None
        runners["ray"] = RayRunner(settings.ray_address, token, settings.ray_patience_seconds)
    return runners
