"""The one settings object. Every value can be set by an environment variable prefixed PLATFORM_."""

import ipaddress
import os
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from cryptography.fernet import Fernet
from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

# A list setting reads as comma-separated text from the environment (PLATFORM_DATA_ROOTS=/data,/models).
CommaList = Annotated[list[str], NoDecode]
# How an operator makes a PLATFORM_SECRET_KEY (the secrets store's, secrets/service.py).
# Where self-hosted model servers are: loopback and the private ranges (IPv4 and IPv6), not link-local.
PRIVATE_NETWORKS = ("127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")
MAKE_SECRET_KEY = 'python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"'


class Settings(BaseSettings):
    # A refused value is never repeated in the error: several settings are secrets (the tokens, the secret key).
    model_config = SettingsConfigDict(
        env_prefix="PLATFORM_", env_file=".env", extra="ignore", hide_input_in_errors=True
    )

    home: Path = Field(default=Path("platform_data"), description="Directory holding all platform state.")
    database_url: str = Field(default="", description="SQLAlchemy URL; empty means SQLite in the home directory.")
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    url: str = Field(default="", description="Where the CLI reaches the API; empty means http://host:port.")
    stop_grace_seconds: float = Field(default=10.0, gt=0, description="SIGTERM to SIGKILL delay when stopping.")
    train_cpu_threads: int = Field(
        default=0, ge=0, description="torch threads of a training process on CPU; 0 lets torch decide."
    )
    gpus: str = Field(
        default="",
        pattern=r"^\s*(\d+\s*(,\s*\d+\s*)*,?)?\s*$",
        description="The GPUs local jobs may use: a count (4: GPUs 0-3) or a list of CUDA indices (2,3); empty "
        "means the machine's GPUs that the server's CUDA_VISIBLE_DEVICES leaves visible, 0 none (jobs on the CPU).",
    )
    cpu_processes: int = Field(
        default=0,
        ge=0,
        description="Where local jobs run on the CPU (no GPUs), a job's num_gpus is its count of training processes: "
        "at most this many; 0 means the machine's CPU count.",
    )
    dataset_error_limit: int = Field(default=20, ge=1, description="Invalid rows listed in a validation error.")
    dataset_max_upload_bytes: int = Field(default=10 * 2**30, ge=1, description="Largest dataset file accepted.")
    milvus_uri: str = Field(
        default="", description="Milvus server for dataset vectors; empty means embedded Milvus Lite in the home."
    )
    milvus_token: str = Field(default="", description="Milvus credentials (`user:password` or an API key).")
    ray_address: str = Field(
        default="", description="Ray dashboard URL for run mode `ray` (e.g. http://127.0.0.1:8265); empty disables it."
    )
    ray_auth_token_file: Path | None = Field(default=None, description="File holding the Ray cluster's auth token.")
    ray_patience_seconds: float = Field(
        default=300.0,
        gt=0,
        description="How long the Ray dashboard may stay unreachable before a job following it is failed.",
    )
    celery_broker_url: str = Field(
        default="",
        description="Celery broker for pipeline stages (e.g. redis://127.0.0.1:6379/0); `tplat worker` serves it. "
        "Empty runs the stages on the server's own threads.",
    )
    pipeline_lease_seconds: float = Field(
        default=30.0,
        gt=0,
        le=3600,
        description="How long a pipeline stage's task may go without a heartbeat before its stage is dispatched again.",
    )
    pipeline_threads: int = Field(
        default=8, ge=1, le=256, description="Stage tasks run at once on the server's threads (no broker)."
    )
    verl_python: Path | None = Field(
        default=None,
        description="Interpreter of the environment verl jobs run in (e.g. .venv-rl/bin/python from "
        "`make rl-env`); empty means the platform's own.",
    )
    job_stall_seconds: float = Field(
        default=1800.0,
        gt=0,
        description="A running job that writes no new log line, metric or status for this long is stopped as hung "
        "(a line repeated on a timer, timestamps aside, is not new).",
    )
    embedding_batch_size: int = Field(default=64, ge=1, description="Texts embedded per forward pass.")
    embedding_cpu_threads: int = Field(
        default=0, ge=0, description="torch threads for embeddings on CPU; 0 lets torch decide."
    )
    metrics_flush_records: int = Field(default=100, ge=1, description="Steps buffered before a metrics write.")
    metrics_flush_seconds: float = Field(default=30.0, gt=0, description="Oldest buffered step's age before a write.")
    metrics_max_import_bytes: int = Field(default=4 * 2**30, ge=1, description="Largest metrics file accepted.")
    system_metrics_seconds: float = Field(
        default=5.0,
        ge=0,
        le=3600,
        description="How often a running local job's CPU, memory and GPUs are sampled into its metrics (at least "
        "0.1 s); 0 turns it off.",
    )
    demo: bool = Field(
        default=False, description="Create and register the offline demo model, datasets and job at start."
    )
    # Alert webhooks (docs/alerts.md).
    alert_timeout_seconds: float = Field(
        default=10.0, gt=0, le=300, description="How long one webhook request may take before it is retried."
    )
    alert_max_attempts: int = Field(
        default=15, ge=1, le=100, description="Requests made for one alert before it is marked failed."
    )
    alert_backoff_seconds: float = Field(
        default=1.0, gt=0, le=3600, description="Wait before the first retry; doubled after each failure."
    )
    alert_backoff_max_seconds: float = Field(
        default=600.0, gt=0, le=86_400, description="Longest wait between two attempts."
    )
    alert_allowed_networks: CommaList = Field(
        default_factory=list,
        description="Networks (CIDR, e.g. 10.1.2.0/24) webhooks may reach besides public addresses: loopback, "
        "link-local and private addresses are refused unless listed here.",
    )
    # Tracker export (docs/trackers.md).
    trackers: list[dict[str, Any]] = Field(
        default_factory=list,
        description='The trackers of a job that names none, as JSON: [{"kind": "tensorboard"}, {"kind": "mlflow", '
        '"tracking_uri": "http://10.0.0.5:5000"}, {"kind": "wandb"}] (W&B offline unless "mode": "online").',
    )
    tracker_poll_seconds: float = Field(
        default=5.0, gt=0, le=3600, description="How often exports look for newly stored steps of running jobs."
    )
    tracker_timeout_seconds: float = Field(
        default=10.0, gt=0, le=300, description="How long one request to a tracker may take before it is retried."
    )
    tracker_backoff_seconds: float = Field(
        default=1.0,
        gt=0,
        le=3600,
        description="Wait before retrying a tracker that failed; doubled after each failure.",
    )
    tracker_backoff_max_seconds: float = Field(
        default=300.0, gt=0, le=86_400, description="Longest wait between two attempts of an export."
    )
    tracker_allowed_networks: CommaList = Field(
        default_factory=lambda: list(PRIVATE_NETWORKS),
        description="Networks (CIDR) an MLflow tracking server may be on besides public addresses; by default "
        "loopback and the private ranges, not link-local (a cloud's metadata service).",
    )

    endpoint_allowed_networks: CommaList = Field(
        default_factory=lambda: list(PRIVATE_NETWORKS),
        description="Networks (CIDR) an evaluation's or the playground's OpenAI-compatible endpoint may be on besides "
        "public addresses; by default loopback and the private ranges (self-hosted model servers), not link-local "
        "(a cloud's metadata service).",
    )

    # Security (docs/security.md). Every limit below is one an attacker would otherwise choose.
    admin_token: SecretStr | None = Field(
        default=None,
        description="An admin API token accepted at start (for scripts, tests and CI), besides the users' own.",
    )
    secret_key: SecretStr | None = Field(
        default=None,
        description="The Fernet key the secrets store (API keys, SSH credentials) encrypts with; without it no secret "
        f"can be stored or used. Make one with: {MAKE_SECRET_KEY}",
    )
    allowed_hosts: CommaList = Field(
        default_factory=list,
        description="Host names the server answers to, besides loopback and the bound interface (DNS rebinding).",
    )
    allowed_origins: CommaList = Field(
        default_factory=list,
        description="Browser origins (scheme://host:port) allowed besides the server's own, e.g. a UI dev server.",
    )
    session_hours: float = Field(default=12.0, gt=0, le=24 * 90, description="How long a web login lasts.")
    login_attempts_per_minute: int = Field(
        default=10, ge=1, description="Failed logins allowed per client address and per user name each minute."
    )
    login_verifications: int = Field(
        default=2,
        ge=1,
        le=64,
        description="Passwords verified at once (argon2 holds 64 MiB for each); more logins wait their turn.",
    )
    data_roots: CommaList = Field(
        default_factory=list,
        description="Directories models and datasets may be registered from by path (the home is always one).",
    )
    reward_code_dir: Path | None = Field(
        default=None, description="Directory custom reward functions may be loaded from; empty allows none."
    )
    validation_concurrency: int = Field(
        default=2, ge=1, description="Engine validations (subprocesses) running at once; more wait their turn."
    )
    max_request_bytes: int = Field(
        default=16 * 2**20, ge=1024, description="Largest request body, uploads aside (see the upload limits)."
    )
    max_json_depth: int = Field(default=64, ge=2, le=1000, description="Deepest nesting of a JSON value read.")
    max_decoded_bytes: int = Field(
        default=8 * 2**30,
        ge=2**20,
        description="Largest size a dataset file may decode to (a compressed Parquet file can expand 1000-fold).",
    )
    max_csv_columns: int = Field(
        default=10_000, ge=1, description="Most columns a CSV file's header may name, checked before a row is read."
    )
    decode_memory_bytes: int = Field(
        default=8 * 2**30,
        ge=64 * 2**20,
        description="Memory one decoding worker may take beyond its libraries' (RLIMIT_AS; docs/security.md).",
    )
    decode_cpu_seconds: int = Field(
        default=300, ge=1, description="CPU time one decoding worker may use, all its threads together (RLIMIT_CPU)."
    )
    decode_timeout_seconds: float = Field(
        default=600, gt=0, description="Wall-clock time after which a decoding worker is killed."
    )
    decode_result_bytes: int = Field(
        default=256 * 2**20, ge=2**20, description="Largest answer a decoding worker may send back (pickled)."
    )
    metrics_max_points: int = Field(
        default=100_000, ge=10, description="Points one metrics query may return across its keys."
    )
    max_websockets: int = Field(default=256, ge=1, description="Live WebSocket connections open at once.")
    max_websockets_per_user: int = Field(
        default=32, ge=1, description="Of those, the most one user (or the admin token) may hold at once."
    )

    @field_validator(
        "allowed_hosts",
        "allowed_origins",
        "data_roots",
        "alert_allowed_networks",
        "endpoint_allowed_networks",
        "tracker_allowed_networks",
        mode="before",
    )
    @classmethod
    def _split_commas(cls, value):
        if isinstance(value, str):
            return [item.strip() for item in value.split(",") if item.strip()]
        return value

    @field_validator("alert_allowed_networks", "endpoint_allowed_networks", "tracker_allowed_networks")
    @classmethod
    def _networks(cls, value: list[str]) -> list[str]:
        try:
            return [str(ipaddress.ip_network(network, strict=False)) for network in value]
        except ValueError as error:
            raise ValueError(f"not a network in CIDR notation: {error}") from None

    @field_validator("secret_key")
    @classmethod
    def _fernet_key(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value():
            return None
        try:
            Fernet(value.get_secret_value())
        except ValueError:
            raise ValueError(
                "PLATFORM_SECRET_KEY is not a Fernet key (32 url-safe base64-encoded bytes): make one with "
                + MAKE_SECRET_KEY
            ) from None
        return value

    @field_validator("system_metrics_seconds")
    @classmethod
    def _sampling_interval(cls, value: float) -> float:
        if 0 < value < 0.1:
            raise ValueError("sample at most every 0.1 s, or set 0 to turn system metrics off")
        return value

    @model_validator(mode="after")
    def _resolve_paths(self) -> "Settings":
        self.home = self.home.expanduser().resolve()
        if self.verl_python:
            # Not resolved: a virtual environment's python is a symlink, and it only works under its own name.
            self.verl_python = Path(os.path.abspath(self.verl_python.expanduser()))
        self.data_roots = [str(Path(root).expanduser().resolve()) for root in self.data_roots]
        if self.reward_code_dir:
            self.reward_code_dir = self.reward_code_dir.expanduser().resolve()
        if not self.database_url:
            self.database_url = f"sqlite:///{self.home / 'platform.db'}"
        if not self.url:
            self.url = f"http://{self.host}:{self.port}"
        return self

    @property
    def jobs_dir(self) -> Path:
        return self.home / "jobs"

    @property
    def models_dir(self) -> Path:
        return self.home / "models"

    @property
    def datasets_dir(self) -> Path:
        return self.home / "datasets"

    @property
    def path_roots(self) -> list[Path]:
        """Where models and datasets may be read from by path: the home and the admin's data roots."""
        return [self.home, *(Path(root) for root in self.data_roots)]

    @property
    def vector_uri(self) -> str:
        return self.milvus_uri or str(self.home / "vectors" / "milvus.db")


@lru_cache
def get_settings() -> Settings:
    return Settings()
