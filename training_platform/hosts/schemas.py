"""What the hosts API accepts and returns: credentials go in and never come back out."""

import re
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator

from training_platform.runners.ssh.paths import checked_executable, checked_work_dir
from training_platform.runners.ssh.probe import HostReport

NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
# A DNS name or an IP address (v4, or v6 without brackets): nothing a resolver or a shell would read otherwise.
_LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
HOST_PATTERN = rf"^{_LABEL}(\.{_LABEL})*$|^[0-9A-Fa-f:.]{{2,45}}$"
USER_PATTERN = r"^[A-Za-z_][A-Za-z0-9_.-]{0,31}$"
_VARIABLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")
MAX_VARIABLES = 64
MAX_VALUE_CHARS = 4096
MAX_KEY_BYTES = 16 * 1024
SECRET_FIELDS = ("password", "private_key", "passphrase")


class HostCreate(BaseModel):
    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)

    name: str = Field(pattern=NAME_PATTERN, description="How jobs name the host: run mode ssh:<name>.")
    host: str = Field(max_length=253, pattern=HOST_PATTERN)
    port: int = Field(default=22, ge=1, le=65535)
    username: str = Field(pattern=USER_PATTERN)
    password: SecretStr | None = Field(default=None, description="Kept encrypted; no answer ever includes it.")
    private_key: SecretStr | None = Field(default=None, description="OpenSSH or PEM text; kept encrypted.")
    passphrase: SecretStr | None = Field(default=None, description="The private key's passphrase; kept encrypted.")
    work_dir: str = Field(description="Where the platform's files go on the host (an absolute path).")
    python: str = Field(default="/usr/bin/python3", description="The interpreter that has the platform's package.")
    environment: dict[str, str] = Field(default={}, description="Variables every run there gets (not secrets).")

    @field_validator("work_dir")
    @classmethod
    def _work_dir(cls, value: str) -> str:
        return checked_work_dir(value)

    @field_validator("python")
    @classmethod
    def _python(cls, value: str) -> str:
        return checked_executable(value)

    @field_validator("environment")
    @classmethod
    def _environment(cls, value: dict[str, str]) -> dict[str, str]:
        if len(value) > MAX_VARIABLES:
            raise ValueError(f"at most {MAX_VARIABLES} variables")
        for name, text in value.items():
            if not _VARIABLE.match(name):
                raise ValueError(f"{name[:40]!r} is not a variable name (letters, digits, '_')")
            if "\x00" in text or len(text) > MAX_VALUE_CHARS:
                raise ValueError(f"{name}: a value holds no NUL and at most {MAX_VALUE_CHARS} characters")
        return value

    @field_validator("password", "private_key", "passphrase")
    @classmethod
    def _size(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value().encode()) > MAX_KEY_BYTES:
            raise ValueError(f"at most {MAX_KEY_BYTES} bytes")
        return value

    @model_validator(mode="after")
    def _one_credential(self) -> "HostCreate":
        if (self.password is None) == (self.private_key is None):
            raise ValueError("give a password or a private key (one of them)")
        if self.passphrase is not None and self.private_key is None:
            raise ValueError("a passphrase goes with a private key")
        return self

    @property
    def auth(self) -> Literal["password", "key"]:
        return "password" if self.password is not None else "key"


class HostRead(BaseModel):
    name: str
    host: str
    port: int
    username: str
    auth: Literal["password", "key"]
    work_dir: str
    python: str
    environment: dict[str, str]
    run_mode: str = Field(description="What a job names to run here.")
    host_key_fingerprint: str | None = Field(description="SHA256 of the host key trusted on first use.")
    report: HostReport | None = Field(description="What the last connection test found.")
    gpus: list[int]
    cpus: int | None
    tested_at: datetime | None
    created_at: datetime


class HostTest(BaseModel):
    """A connection test: what the host has, or why it could not be reached or used."""

    ok: bool
    host_key_fingerprint: str | None = None
    trusted_now: bool = Field(default=False, description="The host key was recorded by this test (first use).")
    report: HostReport | None = None
    error: str | None = None


SyncState = Literal["synced", "syncing", "not_synced", "failed"]


class DatasetSync(BaseModel):
    """A registered dataset's copy on a host."""

    dataset: str
    dataset_id: str
    state: SyncState
    content_hash: str | None = None
    bytes_done: int = 0
    bytes_total: int = 0
    error: str | None = None
    updated_at: datetime | None = None
