"""Wires the services together from the settings; the API and the CLI both start from here.

`open` builds the services over the database (what the CLI and the tests use); `start` and `stop` are a server's
life around them, in one place: a new domain is one line in `_open` and, if it has work of its own to resume or
watch, one in `start`.

One platform owns a data directory: its supervisor is the only one that may start, stop and settle the jobs
there (a second would settle the first one's running jobs as lost, or start them twice). `Platform.open` holds
an exclusive lock on `<home>/platform.lock` until `close`, or until the process ends however it ends.
"""

import asyncio
import fcntl
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from pydantic import ValidationError

from training_platform.alerts.service import AlertService
from training_platform.alerts.store import AlertStore
from training_platform.auth.service import AuthService
from training_platform.auth.setup import create_first_admin, open_auth, server_url, startup_refusal
from training_platform.common.destinations import Destinations
from training_platform.common.files import make_private
from training_platform.common.worker import WorkerLimits
from training_platform.compute.service import ComputeService
from training_platform.datafiles.limits import ReadLimits
from training_platform.datasets.decoding import preview_worker
from training_platform.datasets.service import DatasetService
from training_platform.datasets.storage import DatasetStorage
from training_platform.datasets.store import DatasetStore
from training_platform.datasets.vectors import Embedder, VectorStore
from training_platform.db import Database
from training_platform.diagnostics.service import DiagnosticsService
from training_platform.diagnostics.store import FindingStore
from training_platform.evals.playground import PlaygroundService
from training_platform.evals.service import ENDPOINT_NETWORKS_SETTING, EvalService
from training_platform.hosts.service import HostService
from training_platform.hosts.store import HostStore
from training_platform.jobs.scheduler import JobScheduler
from training_platform.jobs.service import JobService
from training_platform.jobs.states import FINISHED
from training_platform.jobs.store import JobStore
from training_platform.jobs.supervisor import JobSupervisor
from training_platform.metrics.service import MetricsService
from training_platform.metrics.store import MetricStore
from training_platform.metrics.system import PREFIX as SAMPLED_PREFIX
from training_platform.models.service import ModelService
from training_platform.models.store import ModelStore
from training_platform.pipelines.executors import CeleryExecutor, InProcessExecutor, StageExecutor
from training_platform.pipelines.service import PipelineService
from training_platform.pipelines.stages import Services
from training_platform.pipelines.store import PipelineStore
from training_platform.runners.base import Runner
from training_platform.runners.devices import gpu_inventory
from training_platform.runners.local import LocalRunner
from training_platform.runners.ray import RayRunner
from training_platform.secrets.service import SecretService
from training_platform.secrets.store import SecretStore
from training_platform.settings import Settings
from training_platform.surgery.service import SurgeryService
from training_platform.trackers.service import TrackerService
from training_platform.trackers.store import TrackerStore

log = logging.getLogger(__name__)
LOCK_FILE = "platform.lock"


class HomeInUseError(RuntimeError):
    """Another platform process holds the data directory."""


@dataclass
class Platform:
    settings: Settings
    db: Database
    jobs: JobService
    supervisor: JobSupervisor
    models: ModelService
    surgery: SurgeryService
    datasets: DatasetService
    metrics: MetricsService
    alerts: AlertService
    diagnostics: DiagnosticsService
    compute: ComputeService
    auth: AuthService
    secrets: SecretService
    evals: EvalService
    playground: PlaygroundService
    hosts: HostService
    pipelines: PipelineService
    trackers: TrackerService
    home_lock: TextIO | None = field(default=None, repr=False)

    @classmethod
    def open(cls, settings: Settings) -> "Platform":
        """Take the data directory, connect to the database and bring its schema up to date."""
        make_private_home(settings)
        home_lock = lock_home(settings.home)
        try:
            platform = cls._open(settings)
        except BaseException:
            home_lock.close()
            raise
        platform.home_lock = home_lock
        return platform

    @classmethod
    def _open(cls, settings: Settings) -> "Platform":
        db = Database(settings.database_url)
        db.upgrade()
        models = ModelService(ModelStore(db), settings.path_roots)
        limits = ReadLimits(settings.max_json_depth, settings.max_decoded_bytes, settings.max_csv_columns)
        decode_limits = WorkerLimits(
            settings.decode_memory_bytes,
            settings.decode_cpu_seconds,
            settings.decode_timeout_seconds,
            settings.decode_result_bytes,
        )
        # The decoding worker with transformers and TRL loaded: loss previews and a job's chat-template check.
        previews = preview_worker(decode_limits)
        datasets = DatasetService(
            DatasetStore(db),
            DatasetStorage(settings.datasets_dir, settings.dataset_max_upload_bytes),
            models,
            VectorStore(settings.vector_uri, settings.milvus_token),
            Embedder(settings.embedding_batch_size, settings.embedding_cpu_threads),
            settings.dataset_error_limit,
            settings.path_roots,
            limits,
            decode_limits,
            previews,
        )
        store = JobStore(db)
        supervisor = JobSupervisor(
            store,
            _runners(settings),
            settings.stop_grace_seconds,
            settings.train_cpu_threads,
            settings.job_stall_seconds,
        )
        scheduler = JobScheduler(store, supervisor)
        jobs = JobService(
            store,
            supervisor,
            scheduler,
            settings.jobs_dir,
            settings.dataset_error_limit,
            datasets.resolve,
            settings.path_roots,
            limits,
            previews,
            models,
        )
        metrics = MetricsService(
            MetricStore(db),
            jobs,
            settings.metrics_flush_records,
            settings.metrics_flush_seconds,
            settings.metrics_max_import_bytes,
            settings.metrics_max_points,
            settings.max_websockets,
            settings.system_metrics_seconds,
            settings.max_websockets_per_user,
        )
        supervisor.listeners.append(metrics)
        alerts = AlertService(
            AlertStore(db),
            jobs.find,
            settings.url,
            settings.alert_timeout_seconds,
            settings.alert_max_attempts,
            settings.alert_backoff_seconds,
            settings.alert_backoff_max_seconds,
            allowed_networks=settings.alert_allowed_networks,
        )
        diagnostics = DiagnosticsService(FindingStore(db), jobs, metrics, alerts=alerts)
        metrics.watchers.append(diagnostics)
        supervisor.listeners.append(diagnostics)  # after the metrics: the log is scanned once the steps are stored
        surgery = SurgeryService(jobs, metrics, models)
        secrets = SecretService(SecretStore(db), _secret_key(settings))
        trackers = _trackers(settings, db, jobs, metrics, secrets)
        metrics.watchers.append(trackers)  # told which jobs steps were read of; exports in a thread of its own
        endpoints = Destinations(settings.endpoint_allowed_networks, "evaluation endpoints", ENDPOINT_NETWORKS_SETTING)
        evals = EvalService(jobs, datasets, secrets, endpoints)
        playground = PlaygroundService(evals, secrets, settings.train_cpu_threads)
        supervisor.run_environment = evals.run_environment
        hosts = HostService(HostStore(db), secrets, supervisor, jobs, datasets, settings.jobs_dir)
        hosts.load()  # each host's runner, before the jobs running there are recovered
        supervisor.listeners.append(surgery)  # a completed surgery run's result is registered before the next starts
        supervisor.listeners.append(scheduler)  # after the metrics: a settled job's GPUs go to the next in line
        auth = open_auth(db, settings)
        pipelines = _pipelines(settings, db, Services(jobs, evals, surgery, datasets, models), auth)
        return cls(
            settings=settings,
            db=db,
            jobs=jobs,
            supervisor=supervisor,
            models=models,
            datasets=datasets,
            metrics=metrics,
            alerts=alerts,
            diagnostics=diagnostics,
            surgery=surgery,
            compute=ComputeService(settings.path_roots),
            auth=auth,
            secrets=secrets,
            evals=evals,
            playground=playground,
            hosts=hosts,
            pipelines=pipelines,
            trackers=trackers,
        )

    async def start(self) -> None:
        """A server's start-up, in order: the first admin (a server that must not start stops here, before it
        recovers a job; docs/security.md), live streams bound to the server's loop, the jobs and dataset tasks the
        last server left, the stall watch, then the alerts and tracker exports it left pending."""
        self._first_admin()
        self.metrics.hub.bind(asyncio.get_running_loop())
        # In a thread: settling a job whose process ended meanwhile stores its metrics through this loop.
        await asyncio.to_thread(self.jobs.recover)
        self.supervisor.start_stall_watch()
        self.datasets.recover()
        self.alerts.start()
        self.trackers.start()
        self.pipelines.recover()
        self.pipelines.start_watch(min(1.0, self.settings.pipeline_lease_seconds / 3))
        log.info("platform ready: home %s, database %s", self.settings.home, self.db.engine.url.get_backend_name())

    async def stop(self) -> None:
        """Training processes are deliberately left running: the next start re-attaches to them."""
        await self.metrics.stop_following()
        self.close()

    def _first_admin(self) -> None:
        settings = self.settings
        password_file = create_first_admin(self.auth, settings)
        if password_file is not None:
            log.warning(
                "first start: log in at %s as admin with the password in %s",
                server_url(settings.host, settings.port),
                password_file,
            )
        if refusal := startup_refusal(settings, self.auth.has_enabled_users()):
            log.error(refusal)
            raise RuntimeError(refusal)
        self.auth.prune()

    @property
    def run_modes(self) -> list[str]:
        """The run modes jobs can use here (`ray` once PLATFORM_RAY_ADDRESS names a cluster, `ssh:<host>` for each
        host an admin added)."""
        return list(self.supervisor.runners)

    def close(self) -> None:
        self.playground.close()  # its chat workers end with the server
        self.pipelines.close()  # before the jobs: its threads read them
        self.hosts.close()
        self.alerts.close()
        self.trackers.close()
        self.jobs.close()
        self.datasets.close()
        self.db.dispose()
        if self.home_lock is not None:
            self.home_lock.close()  # releases the lock
            self.home_lock = None


def make_private_home(settings: Settings) -> None:
    """The home and its folders for the owner alone (0700): they hold the database, the datasets, the models, the
    jobs' outputs and the first admin's password. Tightened at every start, so a home made by hand stays private."""
    settings.home.mkdir(parents=True, exist_ok=True, mode=0o700)
    make_private(settings.home)
    for folder in (settings.jobs_dir, settings.datasets_dir, settings.models_dir, Path(settings.vector_uri).parent):
        if folder.is_dir() and folder.parent == settings.home:
            make_private(folder)


def lock_home(home: Path) -> TextIO:
    """Hold `home` for this process (released when the returned file is closed, or the process ends);
    HomeInUseError names the process that holds it."""
    handle = open(home / LOCK_FILE, "a+", encoding="utf-8")  # not inherited by the processes the platform starts
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip() or "unknown"
        handle.close()
        raise HomeInUseError(
            f"the data directory {home} is in use by another platform server (pid {holder}): stop that one, or "
            "give this one a data directory of its own (PLATFORM_HOME)"
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


def _runners(settings: Settings) -> dict[str, Runner]:
    runners: dict[str, Runner] = {"local": LocalRunner(gpu_inventory(settings.gpus), settings.cpu_processes)}
    if settings.ray_address:
        token = settings.ray_auth_token_file.read_text().strip() if settings.ray_auth_token_file else None
        runners["ray"] = RayRunner(settings.ray_address, token, settings.ray_patience_seconds)
    return runners


def _pipelines(settings: Settings, db: Database, services: Services, auth: AuthService) -> PipelineService:
    executor: StageExecutor
    if settings.celery_broker_url:
        executor = CeleryExecutor(settings.celery_broker_url)
    else:
        executor = InProcessExecutor(settings.pipeline_threads)
    pipelines = PipelineService(
        PipelineStore(db),
        services,
        executor,
        lambda kind, resource_id, owner: auth.record_owner_name(kind, resource_id, owner),
        settings.pipeline_lease_seconds,
    )
    if isinstance(executor, InProcessExecutor):
        executor.bind(pipelines)
    return pipelines


def _trackers(
    settings: Settings, db: Database, jobs: JobService, metrics: MetricsService, secrets: SecretService
) -> TrackerService:
    try:
        return TrackerService(
            TrackerStore(db),
            jobs.find,
            metrics.records,
            secrets.reveal,
            settings.trackers,
            FINISHED,
            SAMPLED_PREFIX,
            settings.tracker_poll_seconds,
            settings.tracker_timeout_seconds,
            settings.tracker_backoff_seconds,
            settings.tracker_backoff_max_seconds,
            settings.tracker_allowed_networks,
        )
    except ValidationError as error:
        raise ValueError(f"PLATFORM_TRACKERS is not a list of trackers (docs/trackers.md): {error}") from None


def _secret_key(settings: Settings) -> str | None:
    return settings.secret_key.get_secret_value() if settings.secret_key else None
