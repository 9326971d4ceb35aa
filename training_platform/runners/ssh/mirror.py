"""A remote run's files, kept in step with the job's directory on the platform, so that everything that reads a
job's files (metrics, status, logs, health, an evaluation's samples) reads them the same for every run mode.

- Files the run appends to (logs, metrics, samples) are read by offset over SFTP (RemoteFile) and appended here,
  where the metrics follower reads them as it reads every job's (metrics/reader.py, by offset too). The offsets
  are kept in `.remote/offsets.json`, written after the bytes, so a restarted server or a dropped connection goes
  on where it was: nothing is read again from the start and no step is lost. Bytes appended after the offsets
  were last written (a crash between the two writes) are cut off when a mirror starts, and copied again.
- Files the run replaces whole (status, results) are copied again when their size or time changed.
- What the platform asks of the run goes the other way: the control file (pause) and learning-rate requests.
"""

import json
from collections.abc import Callable
from pathlib import Path, PurePosixPath

import asyncssh

from training_platform.common.files import read_json, write_json_atomic
from training_platform.contract.layout import JobLayout
from training_platform.runners.ssh.agent import EXIT_FILE
from training_platform.runners.ssh.host import MAX_PULL_BYTES, RemoteHost, remote_stat, remove_path, write_atomically

STATE_DIR = ".remote"


class RemoteFile:
    """The bytes of a file on a host, read by offset through an open SFTP session."""

    def __init__(self, sftp: asyncssh.SFTPClient, host: str, path: PurePosixPath):
        self.sftp, self.path = sftp, path
        self.name = f"{host}:{path}"

    async def size(self) -> int | None:
        found = await remote_stat(self.sftp, self.path)
        return None if found is None else found.size

    async def read(self, offset: int, length: int) -> bytes:
        async with self.sftp.open(str(self.path), "rb") as handle:
            return await handle.read(length, offset)


class RunMirror:
    def __init__(self, host: RemoteHost, layout: JobLayout, remote_root: PurePosixPath):
        self.host, self.layout, self.remote_root = host, layout, remote_root
        self.state_path = layout.root / STATE_DIR / "offsets.json"
        self._offsets: dict = read_json(self.state_path) or {}  # this mirror is the file's only writer
        self._drop_uncounted()
        self._pushed: dict[str, bytes | None] = {}

    def _drop_uncounted(self) -> None:
        """Bytes appended here after the offsets were last written (a server killed between the two writes) are
        cut off, so that copying them again leaves each line once."""
        for local in self._appended():
            counted = self._offsets.get(local.name, {}).get("size")
            if counted is not None and local.is_file() and local.stat().st_size > counted:
                with open(local, "r+b") as handle:
                    handle.truncate(counted)

    def _appended(self) -> list[Path]:
        layout = self.layout
        return [layout.stdout_path, layout.stderr_path, layout.metrics_path, layout.samples_path]

    def _replaced(self) -> list[Path]:
        return [self.layout.status_path, self.layout.results_path]

    def remote(self, local: Path) -> PurePosixPath:
        return self.remote_root / local.relative_to(self.layout.root).as_posix()

    def sync(self) -> dict | None:
        """One pass both ways; the run's exit record (exit.json) once it wrote one."""
        return self.host.sftp(self._pass)

    async def _pass(self, sftp: asyncssh.SFTPClient) -> dict | None:
        # The exit record first: a run that ended wrote all it wrote before it, so this pass copies all of it.
        ended = await self._read_small(sftp, self.remote_root / EXIT_FILE)
        offsets = self._offsets
        before = dict(offsets)
        try:
            # Each file's offset moves in memory as soon as its bytes are appended: a pass cut short by a dropped
            # connection goes on from there at the next, never copying them again.
            for local in self._appended():
                copied = await self._pull_appended(sftp, local, offsets.get(local.name, {}))
                if copied is not None:
                    offsets[local.name] = copied
            for local in self._replaced():
                found = await remote_stat(sftp, self.remote(local))
                if found is None or [found.size, found.mtime_ns] == offsets.get(local.name):
                    continue
                data = await self._read_small(sftp, self.remote(local), raw=True)
                if data is not None:
                    write_json_atomic(local, json.loads(data))
                    offsets[local.name] = [found.size, found.mtime_ns]
        finally:
            if offsets != before:  # once a pass, after the bytes it counts (and those of a pass cut short)
                write_json_atomic(self.state_path, offsets)
        await self._push(sftp)
        return json.loads(ended) if ended else None

    async def _pull_appended(self, sftp: asyncssh.SFTPClient, local: Path, state: dict) -> dict | None:
        source = RemoteFile(sftp, self.host.name, self.remote(local))
        size = await source.size()
        offset = state.get("offset", 0)
        if size is None or size == offset:
            return None
        if size < offset:  # rewritten from the start (a run resumed by a trainer that truncates its file)
            offset = 0
            local.unlink(missing_ok=True)
        data = await source.read(offset, min(size - offset, MAX_PULL_BYTES))
        local.parent.mkdir(parents=True, exist_ok=True)
        with open(local, "ab") as out:
            out.write(data)
            size = out.tell()
        return {"offset": offset + len(data), "size": size}

    async def _push(self, sftp: asyncssh.SFTPClient) -> None:
        """The control file and learning-rate requests, each sent when it changed (a removed control file is
        removed there too)."""
        pushed = [self.layout.control_path]
        if self.layout.lr_requests_dir.is_dir():
            pushed += sorted(path for path in self.layout.lr_requests_dir.iterdir() if not path.name.startswith("."))
        for local in pushed:
            try:
                data = local.read_bytes()
            except FileNotFoundError:
                data = None
            if self._pushed.get(local.name, b"") == data:
                continue
            remote = self.remote(local)
            if data is None:
                await remove_path(sftp, remote)
            else:
                await write_atomically(sftp, remote, data)
            self._pushed[local.name] = data

    async def _read_small(self, sftp: asyncssh.SFTPClient, path: PurePosixPath, raw: bool = False):
        try:
            async with sftp.open(str(path), "rb") as handle:
                data = await handle.read(MAX_PULL_BYTES)
        except asyncssh.SFTPNoSuchFile:
            return None
        return data if raw else data.decode(errors="replace")

    def fetch_outputs(self, log: Callable[[str], None]) -> None:
        """The run's checkpoints and final model, copied back once it ended: exports, evaluations and surgery on
        the platform read them where every job's are."""
        for local in (self.layout.checkpoints_dir, self.layout.final_model_dir):
            copied = self.host.download_tree(self.remote(local), local)
            if copied:
                log(f"copied {copied / 2**20:.1f} MiB of {local.name}/ from {self.host.name}")
