"""The one settings object. Every value can be set by an environment variable prefixed PLATFORM_."""

import os
from functools import lru_cache
from pathlib import Path

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PLATFORM_", env_file=".env", extra="ignore")

    home: Path = Field(default=Path("platform_data"), description="Directory holding all platform state.")
    database_url: str = Field(default="", description="SQLAlchemy URL; empty means SQLite in the home directory.")
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    url: str = Field(default="", description="Where the CLI reaches the API; empty means http://host:port.")
    stop_grace_seconds: float = Field(default=10.0, gt=0, description="SIGTERM to SIGKILL delay when stopping.")
    train_cpu_threads: int = Field(
        default=0, ge=0, description="torch threads of a training process on CPU; 0 lets torch decide."
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
    demo: bool = Field(
        default=False, description="Create and register the offline demo model, datasets and job at start."
    )

    @model_validator(mode="after")
    def _resolve_paths(self) -> "Settings":
        self.home = self.home.expanduser().resolve()
        if self.verl_python:
            # Not resolved: a virtual environment's python is a symlink, and it only works under its own name.
            self.verl_python = Path(os.path.abspath(self.verl_python.expanduser()))
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
    def vector_uri(self) -> str:
        return self.milvus_uri or str(self.home / "vectors" / "milvus.db")


@lru_cache
def get_settings() -> Settings:
    return Settings()
