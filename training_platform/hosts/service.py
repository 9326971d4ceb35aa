"""Remote hosts: machines the platform runs jobs on over SSH (run mode `ssh:<name>`, runners/ssh/).

An admin adds a host with its password or private key; those go to the secrets store (encrypted with
PLATFORM_SECRET_KEY: without it no host can be added) under `host.<name>.<field>`, and are decrypted only to
open a connection. The host key is trusted on first use, at the first connection test, and a machine that
presents another one later is refused until an admin trusts the new key. A test reports what the host has
(Python, the platform's package, GPUs, disk, memory) and gives its GPUs to the queue.

Datasets (and any file a run reads) are synced by content, one copy per content and host, resumable and checked
by hash (runners/ssh/sync.py); a run syncs what it needs before it starts.
"""

import logging
import threading
import time
import uuid
from functools import partial
from hashlib import sha256
from pathlib import Path, PurePosixPath

from training_platform.common.changes import Change, report
from training_platform.common.locks import KeyedLocks
from training_platform.datasets.service import DatasetService
from training_platform.db.tables import HostFile, SshHost
from training_platform.db.types import utcnow
from training_platform.errors import (
    ConflictError,
    FieldError,
    InvalidInputError,
)
from training_platform.hosts.schemas import SECRET_FIELDS, DatasetSync, HostCreate, HostRead, HostTest
from training_platform.hosts.store import HostStore
from training_platform.jobs.service import JobService
from training_platform.jobs.states import JobStatus
from training_platform.jobs.supervisor import JobSupervisor
from training_platform.runners.ssh.connection import (
    Credentials,
    Endpoint,
    SshClient,
    SshError,
    fingerprint,
    presented_key,
)
from training_platform.runners.ssh.content import files_of
from training_platform.runners.ssh.host import ProgressFn, RemoteHost
from training_platform.runners.ssh.paths import RemotePaths
from training_platform.runners.ssh.runner import PATIENCE_S, SshRunner
from training_platform.runners.ssh.sync import Content, sync
from training_platform.secrets.service import SecretService

log = logging.getLogger(__name__)
RUN_MODE_PREFIX = "ssh:"


def run_mode(name: str) -> str:
    return f"{RUN_MODE_PREFIX}{name}"


def _secret_name(host: str, field: str) -> str:
    return f"host.{host}.{field}"


def signature(path: Path) -> str:
    """What changes when a file or folder changes, without reading it: its files' names, sizes and times."""
    digest = sha256()
    for file in files_of(path):
        info = file.stat()
        name = file.relative_to(path).as_posix() if file != path else ""
        digest.update(f"{name}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


class HostService:
    def __init__(
        self,
        store: HostStore,
        secrets: SecretService,
        supervisor: JobSupervisor,
        jobs: JobService,
        datasets: DatasetService,
        jobs_dir: Path,
        patience_seconds: float = PATIENCE_S,
    ):
        self.store, self.secrets, self.supervisor = store, secrets, supervisor
        self.jobs, self.datasets, self.jobs_dir = jobs, datasets, jobs_dir
        self.patience_seconds = patience_seconds
        self.client = SshClient()
        self._sync_locks = KeyedLocks()

    def load(self) -> None:
        """At start, before the jobs are recovered: every host's runner, and copies a stopped server left going
        marked as interrupted (the next sync goes on from where they were)."""
        for host in self.store.list_all():
            self._register(host)
        for synced in self.store.interrupted():
            self.store.put_file(synced.host_id, synced.source_path, state="failed", error="interrupted by a restart")

    def close(self) -> None:
        self.client.close()

    # ---- hosts -------------------------------------------------------------------------------------------------

    def create(self, host: HostCreate, user: str | None) -> HostRead:
        if self.store.find(host.name) is not None:
            raise ConflictError(f"a host named '{host.name}' exists")
        for field in SECRET_FIELDS:
            if (value := getattr(host, field)) is not None:
                self.secrets.put(_secret_name(host.name, field), value.get_secret_value(), user)
        fields = host.model_dump(exclude=set(SECRET_FIELDS))
        row = self.store.add(SshHost(id=uuid.uuid4().hex, auth=host.auth, created_by=user, **fields))
        report(Change("host", row.id, row.name, "added"))
        self._register(row)
        return _read(row)

    def list_all(self) -> list[HostRead]:
        return [_read(host) for host in self.store.list_all()]

    def get(self, name: str) -> HostRead:
        return _read(self.store.get(name))

    def delete(self, name: str) -> None:
        host = self.store.get(name)
        busy = [
            job.name
            for job in self.jobs.list_jobs([JobStatus.RUNNING, JobStatus.QUEUED], limit=10_000, offset=0)
            if job.run_mode == run_mode(name)
        ]
        if busy:
            raise ConflictError(f"host {name} runs or queues jobs ({', '.join(busy[:5])}): stop them first")
        self.supervisor.runners.pop(run_mode(name), None)
        self.client.forget(name)
        self.store.delete(host.id)
        for field in SECRET_FIELDS:
            if self.secrets.exists(_secret_name(name, field)):
                self.secrets.delete(_secret_name(name, field))
        report(Change("host", host.id, host.name, "removed"))

    def test(self, name: str) -> HostTest:
        """Connect, trusting the host key on first use, and probe what the host has."""
        host = self.store.get(name)
        trusted_now = False
        self.client.forget(name)  # a test checks the machine as it is now: address, key, credentials
        try:
            if host.host_key is None:
                key = self.client.call(presented_key(_endpoint(host)))
                if key is None:
                    raise SshError(f"{host.host}:{host.port} presented no host key")
                host = self.store.update(host.id, host_key=key)
                trusted_now = True
                self._register(host)
            found = self._remote(host).probe()
        except SshError as error:
            return HostTest(ok=False, host_key_fingerprint=_fingerprint(host), error=str(error))
        gpus = sorted(gpu.index for gpu in found.gpus)
        report_json = found.model_dump(mode="json")
        host = self.store.update(host.id, report=report_json, gpus=gpus, cpus=found.cpus, tested_at=utcnow())
        self._register(host)
        return HostTest(
            ok=not found.problems,
            host_key_fingerprint=_fingerprint(host),
            trusted_now=trusted_now,
            report=found,
            error="; ".join(found.problems) or None,
        )

    def trust(self, name: str) -> HostTest:
        """Forget the recorded host key (a reinstalled machine) and trust the one it presents now."""
        host = self.store.get(name)
        self.store.update(host.id, host_key=None)
        self.client.forget(name)
        report(Change("host", host.id, host.name, "host key trusted again"))
        return self.test(name)

    # ---- wiring --------------------------------------------------------------------------------------------------

    def _credentials(self, name: str, auth: str) -> Credentials:
        fields = ("password",) if auth == "password" else ("private_key", "passphrase")
        values = {}
        for field in fields:
            secret = _secret_name(name, field)
            if field == "passphrase" and not self.secrets.exists(secret):
                continue
            try:
                values[field] = self.secrets.reveal(secret)
            except InvalidInputError as error:
                raise SshError(f"host {name}'s credentials cannot be read: {error}") from None
        return Credentials(**values)

    def _remote(self, host: SshHost) -> RemoteHost:
        return RemoteHost(
            client=self.client,
            endpoint=_endpoint(host),
            credentials=partial(self._credentials, host.name, host.auth),
            python=host.python,
            environment=dict(host.environment),
            paths=RemotePaths(host.work_dir),
        )

    def _register(self, host: SshHost) -> None:
        self.client.forget(host.name)  # its record changed: the next connection uses the new one
        runner = SshRunner(
            self._remote(host),
            self.jobs_dir,
            partial(self.sync_path, host.id),
            host.gpus,
            host.cpus,
            self.patience_seconds,
        )
        self.supervisor.runners[run_mode(host.name)] = runner

    # ---- syncing -------------------------------------------------------------------------------------------------

    def sync_path(self, host_id: str, path: Path, progress: ProgressFn) -> PurePosixPath:
        """`path` on the host (copied there first unless its content is there), its state recorded as it goes."""
        source = str(path)
        with self._sync_locks(f"{host_id}:{source}"):
            host = self._host_by_id(host_id)
            current = signature(path)
            known = self.store.file(host_id, source)
            if known and known.state == "synced" and known.signature == current and known.remote_path:
                progress(known.bytes_total, known.bytes_total)
                return PurePosixPath(known.remote_path)
            self.store.put_file(host_id, source, state="syncing", signature=current, error=None, bytes_done=0)
            try:
                content = Content.of(path)
                self.store.put_file(host_id, source, content_hash=content.content_hash, bytes_total=content.size)
                remote = sync(self._remote(host), content, _recording(self.store, host_id, source, progress))
            except (SshError, OSError) as error:
                self.store.put_file(host_id, source, state="failed", error=str(error))
                raise SshError(f"syncing {source} to {host.name} failed: {error}") from error
            self.store.put_file(host_id, source, state="synced", remote_path=str(remote), bytes_done=content.size)
            return remote

    def _host_by_id(self, host_id: str) -> SshHost:
        host = self.store.by_id(host_id)
        if host is None:
            raise SshError(f"host {host_id} was removed")
        return host

    def dataset_states(self, name: str) -> list[DatasetSync]:
        host = self.store.get(name)
        synced = {row.source_path: row for row in self.store.files(host.id)}
        datasets = self.datasets.list_all()
        return [_dataset_sync(dataset.name, dataset.id, synced.get(dataset.path)) for dataset in datasets]

    def sync_datasets(self, name: str, dataset: str | None) -> list[DatasetSync]:
        """Start syncing one dataset (by name or id) or all of them, in the background; their states now."""
        host = self.store.get(name)
        chosen = [self.datasets.get(dataset)] if dataset else self.datasets.list_all()
        for entry in chosen:
            path = Path(entry.path)
            if not path.exists():
                raise InvalidInputError([FieldError("dataset", f"dataset {entry.name}'s file {path} is missing")])
            self.store.put_file(host.id, entry.path, state="syncing", signature=signature(path), error=None)
            threading.Thread(
                target=self._sync_quietly, args=(host.id, path), name=f"sync-{name}-{entry.id}", daemon=True
            ).start()
        states = {state.dataset_id: state for state in self.dataset_states(name)}
        return [states[entry.id] for entry in chosen]

    def _sync_quietly(self, host_id: str, path: Path) -> None:
        try:
            self.sync_path(host_id, path, lambda done, total: None)
        except SshError as error:
            log.warning("%s", error)  # recorded as the file's state


def _recording(store: HostStore, host_id: str, source: str, progress: ProgressFn) -> ProgressFn:
    """`progress`, with the bytes done written to the file's row at most once a second."""
    last = [0.0]

    def record(done: int, total: int) -> None:
        progress(done, total)
        now = time.monotonic()
        if now - last[0] >= 1.0:
            last[0] = now
            store.put_file(host_id, source, bytes_done=done)

    return record


def _dataset_sync(name: str, dataset_id: str, row: HostFile | None) -> DatasetSync:
    if row is None:
        return DatasetSync(dataset=name, dataset_id=dataset_id, state="not_synced")
    state = row.state
    path = Path(row.source_path)
    if state == "synced" and (not path.exists() or signature(path) != row.signature):
        state = "not_synced"  # changed here since
    return DatasetSync(
        dataset=name,
        dataset_id=dataset_id,
        state=state,
        content_hash=row.content_hash,
        bytes_done=row.bytes_done,
        bytes_total=row.bytes_total,
        error=row.error,
        updated_at=row.updated_at,
    )


def _endpoint(host: SshHost) -> Endpoint:
    return Endpoint(host.name, host.host, host.port, host.username, host.host_key)


def _fingerprint(host: SshHost) -> str | None:
    return fingerprint(host.host_key) if host.host_key else None


def _read(host: SshHost) -> HostRead:
    return HostRead.model_validate(
        {**host.model_dump(), "run_mode": run_mode(host.name), "host_key_fingerprint": _fingerprint(host)}
    )
