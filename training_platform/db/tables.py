"""The platform's tables. Changing one means adding an Alembic revision (`alembic revision --autogenerate`), which
tests/db/test_migrations.py holds to these classes."""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, Float, ForeignKey, Integer, String, Text, UniqueConstraint, false
from sqlmodel import Field, SQLModel

from training_platform.db.types import UTCDateTime, utcnow


def _timestamp(**kwargs: Any) -> Any:
    return Field(default_factory=utcnow, sa_type=UTCDateTime, **kwargs)


class Job(SQLModel, table=True):
    __tablename__ = "jobs"

    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(unique=True, index=True, max_length=200)
    algorithm: str = Field(max_length=16)
    engine: str = Field(max_length=32)
    # local, ray, or ssh:<host name> (hosts/)
    run_mode: str = Field(default="local", max_length=80)
    model_path: str = Field(sa_type=Text)
    dataset_paths: list[str] = Field(sa_column=Column(JSON, nullable=False))
    # Data format per data file that came from a registered dataset (`dataset:<name>`), applied when read: a
    # contract.data.DataFormat as JSON (preset, field mapping, sharegpt tags, split).
    dataset_formats: dict[str, dict] = Field(
        default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}")
    )
    eval_dataset_path: str | None = Field(default=None, sa_type=Text)
    params: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    status: str = Field(index=True, max_length=16)
    # An action asked of a live process (pause/stop) that takes effect when the process exits.
    requested_action: str | None = Field(default=None, max_length=16)
    output_dir: str = Field(sa_type=Text)
    error: str | None = Field(default=None, sa_type=Text)
    pid: int | None = None
    # The runner's reference to the run (a local pid as text, a Ray submission id).
    run_ref: str | None = Field(default=None, max_length=64)
    # The OS start time of `pid`; with it a restarted server tells the job's process from a reused pid.
    process_started_at: float | None = None
    exit_code: int | None = None
    attempt: int = 0
    # Why its last run failed (jobs/failures.py Failure as JSON): its kind, what ended it and the cause its log held.
    failure: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    # The seconds its ended attempts ran, launch to exit; None for a job from before the platform counted them.
    run_seconds: float | None = 0.0
    # Its trainer's last report of the attempt that ended (step, loss, learning rate, epoch, ETA), shown until the
    # next attempt reports its own.
    last_progress: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    # The GPUs (CUDA indices) the job holds while it runs locally; empty in every other status.
    gpus: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False, server_default="[]"))
    # When the job last joined the GPU queue: the queue is first in, first out.
    queued_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    # Detector overrides and automatic actions (contract/health.py HealthSettings); the state its findings put it in.
    health_settings: dict[str, Any] = Field(
        default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}")
    )
    health: str = Field(default="healthy", max_length=16, sa_column_kwargs={"server_default": "healthy"})
    # The trackers its metrics are exported to (trackers/schemas.py TrackerSpec as JSON); None: the platform's default.
    trackers: list[dict[str, Any]] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    # Settings passed on to its engine as they are (contract/run.py EngineSettings).
    engine_settings: dict[str, Any] = Field(
        default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}")
    )
    created_at: datetime = _timestamp()
    updated_at: datetime = _timestamp()
    started_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class JobEvent(SQLModel, table=True):
    __tablename__ = "job_events"

    id: int | None = Field(default=None, primary_key=True)
    job_id: str = Field(sa_column=Column(ForeignKey("jobs.id", ondelete="CASCADE"), index=True, nullable=False))
    created_at: datetime = _timestamp()
    kind: str = Field(max_length=16)
    from_status: str | None = Field(default=None, max_length=16)
    to_status: str | None = Field(default=None, max_length=16)
    message: str = Field(default="", sa_type=Text)  # in English, for readers that do not ask for a language
    # The text's code and parameters (common/text.py), rendered in each reader's language; none for older events.
    code: str | None = Field(default=None, max_length=64)
    params: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))


class RegisteredModel(SQLModel, table=True):
    __tablename__ = "models"

    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(unique=True, index=True, max_length=200)
    path: str = Field(sa_type=Text)
    architecture: str = Field(default="", max_length=64)
    num_parameters: int | None = Field(default=None, sa_type=BigInteger)
    description: str = Field(default="", sa_type=Text)
    # A surgery run's result: the job that wrote it, and its surgery.json (operation, inputs with hashes, parameters).
    job_id: str | None = Field(default=None, max_length=32)
    lineage: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    created_at: datetime = _timestamp()


class RegisteredDataset(SQLModel, table=True):
    __tablename__ = "datasets"

    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(unique=True, index=True, max_length=200)
    path: str = Field(sa_type=Text)
    kind: str = Field(max_length=16)
    file_format: str = Field(max_length=16)
    num_rows: int = Field(sa_type=BigInteger)
    size_bytes: int = Field(sa_type=BigInteger)
    description: str = Field(default="", sa_type=Text)
    created_at: datetime = _timestamp()
    # sha256 of the content (of every file, for a directory); one registration per content.
    content_hash: str | None = Field(default=None, max_length=64, unique=True, index=True)
    # "upload" and "derived" files live in the platform's data directory and go with the dataset; "path" files
    # were registered where they are and are never deleted by the platform.
    source: str = Field(default="path", max_length=16, sa_column_kwargs={"server_default": "path"})
    original_filename: str | None = Field(default=None, max_length=255)
    num_invalid: int = Field(default=0, sa_type=BigInteger, sa_column_kwargs={"server_default": "0"})
    columns: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False, server_default="[]"))
    # Platform field name -> the file's column ({"prompt": "question"}); used by validation, analysis and jobs.
    field_mapping: dict[str, str] = Field(
        default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}")
    )
    label_fields: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False, server_default="[]"))
    # The shape of the rows (contract/data.py): a format preset (None: the platform's own), a sharegpt preset's
    # tags (None: LLaMA-Factory's defaults), and the split of a folder that holds several.
    preset: str | None = Field(default=None, max_length=40)
    tags: dict[str, str] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    split: str | None = Field(default=None, max_length=100)
    # Every split of the folder (train, validation, test...): the others are offered as evaluation sets.
    splits: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False, server_default="[]"))
    # Columns left out of every row on purpose at registration (media: datafiles/meaning.py).
    dropped_columns: list[str] = Field(
        default_factory=list, sa_column=Column(JSON, nullable=False, server_default="[]")
    )
    # Versions: a derived dataset (dedup, conversion, split) points at its parent; all share the root's lineage.
    parent_id: str | None = Field(
        default=None,
        sa_column=Column(
            ForeignKey("datasets.id", ondelete="SET NULL", name="fk_datasets_parent_id"), nullable=True, index=True
        ),
    )
    lineage_id: str | None = Field(default=None, max_length=32, index=True)
    version: int = Field(default=1, sa_column_kwargs={"server_default": "1"})
    derivation: str = Field(default="", sa_type=Text, sa_column_kwargs={"server_default": ""})


class BackgroundTask(SQLModel):
    """Long work in the background (a dataset audit, a checkpoint export) with its progress and result."""

    id: str = Field(primary_key=True, max_length=32)
    kind: str = Field(max_length=16)
    status: str = Field(max_length=16)  # queued | running | completed | failed
    progress: float = 0.0
    message: str = Field(default="", sa_type=Text)
    params: dict[str, Any] = Field(default_factory=dict, sa_type=JSON, nullable=False)
    result: dict[str, Any] | None = Field(default=None, sa_type=JSON, nullable=True)
    error: str | None = Field(default=None, sa_type=Text)
    created_at: datetime = _timestamp()
    started_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class DatasetTask(BackgroundTask, table=True):
    """Background work on a dataset: audit, vector index, dedup."""

    __tablename__ = "dataset_tasks"

    dataset_id: str = Field(sa_column=Column(ForeignKey("datasets.id", ondelete="CASCADE"), index=True, nullable=False))


class JobTask(BackgroundTask, table=True):
    """Background work on a job: checkpoint export."""

    __tablename__ = "job_tasks"

    job_id: str = Field(sa_column=Column(ForeignKey("jobs.id", ondelete="CASCADE"), index=True, nullable=False))


class MetricSeries(SQLModel, table=True):
    """One logged key of one job; its values are in metric_points."""

    __tablename__ = "metric_series"
    __table_args__ = (UniqueConstraint("job_id", "key"),)

    id: int | None = Field(default=None, primary_key=True)
    job_id: str = Field(sa_column=Column(ForeignKey("jobs.id", ondelete="CASCADE"), nullable=False))
    key: str = Field(max_length=255)


class MetricPoint(SQLModel, table=True):
    __tablename__ = "metric_points"
    __table_args__ = {"sqlite_with_rowid": False}

    series_id: int = Field(
        sa_column=Column(Integer, ForeignKey("metric_series.id", ondelete="CASCADE"), primary_key=True)
    )
    step: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    # NULL stands for NaN: SQLite turns NaN into NULL anyway, so both backends store it the same way.
    value: float | None = Field(default=None, sa_type=Float)


class MetricRollup(SQLModel, table=True):
    """Summary of a series over a fixed bucket of steps, so long ranges downsample without reading every point."""

    __tablename__ = "metric_rollups"
    __table_args__ = {"sqlite_with_rowid": False}

    series_id: int = Field(
        sa_column=Column(Integer, ForeignKey("metric_series.id", ondelete="CASCADE"), primary_key=True)
    )
    bucket: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    count: int
    first_step: int = Field(sa_type=BigInteger)
    first_value: float | None = Field(default=None, sa_type=Float)
    last_step: int = Field(sa_type=BigInteger)
    last_value: float | None = Field(default=None, sa_type=Float)
    min_step: int | None = Field(default=None, sa_type=BigInteger)
    min_value: float | None = Field(default=None, sa_type=Float)
    max_step: int | None = Field(default=None, sa_type=BigInteger)
    max_value: float | None = Field(default=None, sa_type=Float)
    nan_step: int | None = Field(default=None, sa_type=BigInteger)


class MetricCursor(SQLModel, table=True):
    """How far a metrics source has been ingested; committed with the rows it covers."""

    __tablename__ = "metric_cursors"

    job_id: str = Field(sa_column=Column(ForeignKey("jobs.id", ondelete="CASCADE"), primary_key=True))
    source: str = Field(sa_column=Column(Text, primary_key=True))
    offset: int = Field(default=0, sa_type=BigInteger)
    line_number: int = Field(default=0, sa_type=BigInteger)
    fingerprint: str | None = Field(default=None, max_length=64)
    fingerprint_length: int = 0
    malformed_lines: int = Field(default=0, sa_type=BigInteger)
    updated_at: datetime = _timestamp()


class MetricAnomaly(SQLModel, table=True):
    """A step the training side flagged (non-finite loss and the like)."""

    __tablename__ = "metric_anomalies"

    job_id: str = Field(sa_column=Column(ForeignKey("jobs.id", ondelete="CASCADE"), primary_key=True))
    step: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    kind: str = Field(sa_column=Column(String(64), primary_key=True))
    message: str = Field(default="", sa_type=Text)


class Finding(SQLModel, table=True):
    """What a detector found in a job (training_platform/diagnostics): one row per kind and rule, its step range
    growing while the condition keeps holding; the actions already taken for it, so none is taken twice."""

    __tablename__ = "findings"
    __table_args__ = (UniqueConstraint("job_id", "kind", "rule"),)

    id: int | None = Field(default=None, primary_key=True)
    job_id: str = Field(sa_column=Column(ForeignKey("jobs.id", ondelete="CASCADE"), index=True, nullable=False))
    kind: str = Field(max_length=32)
    rule: str = Field(default="", max_length=32)
    severity: str = Field(max_length=16)
    first_step: int = Field(sa_type=BigInteger)
    last_step: int = Field(sa_type=BigInteger)
    best_step: int | None = Field(default=None, sa_type=BigInteger)
    # The latest signal's evidence (non-finite values as the strings "NaN", "Infinity", "-Infinity") and params.
    evidence: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    params: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    actions: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False, server_default="[]"))
    created_at: datetime = _timestamp()
    updated_at: datetime = _timestamp()


# ---- alerts (training_platform/alerts; docs/alerts.md) -------------------------------------------------------------


class AlertTarget(SQLModel, table=True):
    """A webhook that alerts go to: every job's (job_id NULL) or one job's, gone with that job."""

    __tablename__ = "alert_targets"

    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(unique=True, index=True, max_length=200)
    job_id: str | None = Field(
        default=None, sa_column=Column(ForeignKey("jobs.id", ondelete="CASCADE"), index=True, nullable=True)
    )
    format: str = Field(max_length=16)  # generic | slack | feishu
    # Slack's and Feishu's webhook URLs are their credential: the API never shows one whole again.
    url: str = Field(sa_type=Text)
    severities: list[str] = Field(sa_column=Column(JSON, nullable=False))
    kinds: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))  # empty: every kind
    enabled: bool = True
    created_at: datetime = _timestamp()


class AlertOutbox(SQLModel, table=True):
    """One event to deliver to one target, written before anything is sent: a restart loses no alert, and the
    unique (target, event) pair makes announcing the same event twice send it once."""

    __tablename__ = "alert_outbox"
    __table_args__ = (UniqueConstraint("target_id", "event_key"),)

    id: int | None = Field(default=None, primary_key=True)
    target_id: str = Field(
        sa_column=Column(ForeignKey("alert_targets.id", ondelete="CASCADE"), index=True, nullable=False)
    )
    event_key: str = Field(max_length=200)
    event: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    status: str = Field(index=True, max_length=16)  # pending | delivered | failed
    attempts: int = 0
    next_attempt_at: datetime = _timestamp()
    last_error: str | None = Field(default=None, sa_type=Text)
    created_at: datetime = _timestamp()
    delivered_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class TrackerExport(SQLModel, table=True):
    """One job's export to one tracker (training_platform/trackers): its cursor, the last step the tracker acknowledged,
    moves only after the tracker took the steps up to it, so a restart resumes there and no step is sent twice."""

    __tablename__ = "tracker_exports"
    __table_args__ = (UniqueConstraint("job_id", "position"),)

    id: int | None = Field(default=None, primary_key=True)
    job_id: str = Field(sa_column=Column(ForeignKey("jobs.id", ondelete="CASCADE"), index=True, nullable=False))
    position: int  # in the job's list of trackers
    kind: str = Field(max_length=16)
    spec: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    status: str = Field(index=True, max_length=16)  # exporting | closed
    exported_step: int | None = Field(default=None, sa_type=BigInteger)
    run_ref: str | None = Field(default=None, max_length=200)  # the tracker's run: an MLflow run id, a W&B run id
    failures: int = 0  # in a row, since the tracker last took a request
    next_attempt_at: datetime = _timestamp()
    last_error: str | None = Field(default=None, sa_type=Text)
    created_at: datetime = _timestamp()
    updated_at: datetime = _timestamp()


class AlertAttempt(SQLModel, table=True):
    """One request made for an outbox row, whatever came of it."""

    __tablename__ = "alert_attempts"

    id: int | None = Field(default=None, primary_key=True)
    outbox_id: int = Field(
        sa_column=Column(Integer, ForeignKey("alert_outbox.id", ondelete="CASCADE"), index=True, nullable=False)
    )
    attempted_at: datetime = _timestamp()
    status_code: int | None = None
    error: str | None = Field(default=None, sa_type=Text)
    duration_ms: float = 0.0


# ---- authentication (training_platform/auth; docs/security.md) ---------------------------------------------------


class User(SQLModel, table=True):
    __tablename__ = "users"

    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(unique=True, index=True, max_length=64)
    role: str = Field(max_length=16)  # admin | member | viewer
    # An argon2 hash in PHC format (pwdlib); the password itself is never stored.
    password_hash: str = Field(sa_type=Text)
    disabled: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    created_at: datetime = _timestamp()
    updated_at: datetime = _timestamp()


class ApiToken(SQLModel, table=True):
    """An API token or a web login session. Only the SHA-256 of the token is kept: a copy of the database gives
    nobody a credential."""

    __tablename__ = "api_tokens"

    id: str = Field(primary_key=True, max_length=32)
    user_id: str = Field(sa_column=Column(ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False))
    kind: str = Field(max_length=16)  # api | session
    name: str = Field(max_length=100)
    token_hash: str = Field(unique=True, index=True, max_length=64)
    # The token's first characters, so that its owner can tell their tokens apart in a list.
    prefix: str = Field(max_length=16)
    created_at: datetime = _timestamp()
    last_used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    expires_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class ResourceOwner(SQLModel, table=True):
    """Who created a job, dataset or model: members may change only their own. Kept by the auth domain, beside
    the resources' own tables (as MLflow's basic-auth plugin keeps experiment permissions in tables of its own)."""

    __tablename__ = "resource_owners"

    kind: str = Field(sa_column=Column(String(16), primary_key=True))
    resource_id: str = Field(sa_column=Column(String(32), primary_key=True))
    owner: str = Field(max_length=64, index=True)
    created_at: datetime = _timestamp()


class AuditEntry(SQLModel, table=True):
    """Who did what to which resource, from where."""

    __tablename__ = "audit_log"

    id: int | None = Field(default=None, primary_key=True)
    created_at: datetime = _timestamp()
    actor: str = Field(max_length=64, index=True)
    action: str = Field(max_length=32)
    resource_kind: str | None = Field(default=None, max_length=16)
    resource_id: str | None = Field(default=None, max_length=64, index=True)
    resource_name: str | None = Field(default=None, max_length=200)
    client: str | None = Field(default=None, max_length=64)
    detail: str = Field(default="", sa_type=Text)


class Secret(SQLModel, table=True):
    """A named credential (an API key) for the platform's own use: its value only as a Fernet token made with
    PLATFORM_SECRET_KEY (secrets/service.py), never in clear."""

    __tablename__ = "secrets"

    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(unique=True, index=True, max_length=128)
    ciphertext: str = Field(sa_type=Text)
    created_at: datetime = _timestamp()
    updated_at: datetime = _timestamp()
    created_by: str | None = Field(default=None, max_length=64)  # the user's name, as resource_owners keeps it


class SshHost(SQLModel, table=True):
    """A remote machine that runs jobs over SSH (hosts/). Its password or private key is in the secrets store
    (encrypted), never here; its host key is the one trusted on first use."""

    __tablename__ = "ssh_hosts"

    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(unique=True, index=True, max_length=64)
    host: str = Field(max_length=255)
    port: int
    username: str = Field(max_length=64)
    auth: str = Field(max_length=16)  # password | key
    work_dir: str = Field(sa_type=Text)
    python: str = Field(sa_type=Text)
    environment: dict[str, str] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    host_key: str | None = Field(default=None, sa_type=Text)  # OpenSSH public key, recorded on first trust
    # What the last connection test found (runners/ssh/probe.py HostReport) and the devices it gives the queue.
    report: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    gpus: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    cpus: int | None = None
    tested_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = _timestamp()
    created_by: str | None = Field(default=None, max_length=64)


class HostFile(SQLModel, table=True):
    """A local file or folder synced to a host (runners/ssh/sync.py): its content hash, where it is there and how
    far a copy got. `signature` (the files' names, sizes and times) tells when the local one changed."""

    __tablename__ = "host_files"
    __table_args__ = (UniqueConstraint("host_id", "source_path"),)

    id: int | None = Field(default=None, primary_key=True)
    host_id: str = Field(sa_column=Column(ForeignKey("ssh_hosts.id", ondelete="CASCADE"), index=True, nullable=False))
    source_path: str = Field(sa_type=Text)
    signature: str = Field(max_length=64)
    content_hash: str | None = Field(default=None, max_length=64)
    remote_path: str | None = Field(default=None, sa_type=Text)
    state: str = Field(max_length=16)  # syncing | synced | failed
    bytes_done: int = Field(default=0, sa_type=BigInteger)
    bytes_total: int = Field(default=0, sa_type=BigInteger)
    error: str | None = Field(default=None, sa_type=Text)
    updated_at: datetime = _timestamp()


class Pipeline(SQLModel, table=True):
    """A DAG of stages (pipelines/): its definition as written, and where it stands. The truth of a pipeline is
    here and in its stages' rows, never in a task queue's result backend."""

    __tablename__ = "pipelines"

    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(unique=True, index=True, max_length=200)
    description: str = Field(default="", sa_type=Text)
    status: str = Field(max_length=16, index=True)  # pipelines/schemas.py PipelineStatus
    definition: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    text: str | None = Field(default=None, sa_type=Text)  # the YAML it was written in
    concurrency: int
    error: str | None = Field(default=None, sa_type=Text)
    owner: str | None = Field(default=None, max_length=64)
    created_at: datetime = _timestamp()
    started_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class PipelineStage(SQLModel, table=True):
    """One stage of a pipeline. A task holds it by `task_id` with a lease it renews; every change of hands is a
    compare-and-set on (status, task_id), so two tasks never both run or settle it."""

    __tablename__ = "pipeline_stages"
    __table_args__ = (UniqueConstraint("pipeline_id", "name"),)

    id: int | None = Field(default=None, primary_key=True)
    pipeline_id: str = Field(
        sa_column=Column(ForeignKey("pipelines.id", ondelete="CASCADE"), index=True, nullable=False)
    )
    name: str = Field(max_length=64)
    position: int
    layer: int
    spec: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))  # the StageSpec as defined now
    status: str = Field(max_length=16)  # pipelines/schemas.py StageStatus
    attempt: int = 0
    attempts_base: int = 0  # the attempt a resume started from: retries count from here
    task_id: str | None = Field(default=None, max_length=64)
    worker: str | None = Field(default=None, max_length=200)
    lease_expires_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    not_before: datetime | None = Field(default=None, sa_type=UTCDateTime)  # a retry's delay
    work_kind: str | None = Field(default=None, max_length=16)  # job | dataset_task | job_task
    work_id: str | None = Field(default=None, max_length=64)
    work_name: str | None = Field(default=None, max_length=200)  # set before a job is launched: found again after
    outputs: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    error: str | None = Field(default=None, sa_type=Text)
    done_spec: str | None = Field(default=None, max_length=64)  # the spec's hash when it completed
    dispatched_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    started_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
