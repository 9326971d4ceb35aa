"""One remote host as the platform uses it: its agent's verbs, its probe, and file operations over SFTP.

Every remote path passed here was made by RemotePaths (runners/ssh/paths.py) from checked names; SFTP takes a
path as one value, so none is ever read by a shell.
"""

import json
import posixpath
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import asyncssh

from training_platform.runners.ssh.connection import (
    COMMAND_TIMEOUT_S,
    CommandResult,
    Credentials,
    Endpoint,
    SshClient,
    SshError,
)
from training_platform.runners.ssh.paths import RemotePaths
from training_platform.runners.ssh.probe import HostReport, probe_argv, read_probe

AGENT_MODULE = "training_platform.runners.ssh.agent"
CHUNK_BYTES = 1024 * 1024
# Bytes of one remote file copied per pass of a follower: a burst of output arrives over a few passes.
MAX_PULL_BYTES = 8 * 1024 * 1024

ProgressFn = Callable[[int, int], None]  # bytes done, bytes in all


@dataclass(frozen=True)
class RemoteStat:
    size: int
    mtime_ns: int
    is_dir: bool


@dataclass
class RemoteHost:
    client: SshClient
    endpoint: Endpoint
    credentials: Callable[[], Credentials]  # asked at each connection: decrypted only then
    python: str
    environment: dict[str, str]
    paths: RemotePaths

    @property
    def name(self) -> str:
        return self.endpoint.name

    def run(self, argv: list[str], input_text: str | None = None, timeout: float = COMMAND_TIMEOUT_S) -> CommandResult:
        return self.client.run(self.endpoint, self.credentials(), argv, input_text, timeout)

    def probe(self) -> HostReport:
        result = self.run(probe_argv(self.python, str(self.paths.work_dir)), timeout=60)
        try:
            return read_probe(result, self.python)
        except ValueError as error:
            raise SshError(str(error)) from None

    def agent(self, verb: str, request: dict, timeout: float = COMMAND_TIMEOUT_S) -> dict:
        """The agent's answer to `verb`; SshError when it could not answer."""
        result = self.run([self.python, "-m", AGENT_MODULE, verb], json.dumps(request), timeout)
        lines = result.stdout.strip().splitlines()
        try:
            answer = json.loads(lines[-1]) if lines else None
        except ValueError:
            answer = None
        if result.exit_status in (126, 127):
            raise SshError(f"no Python at {self.python} on host {self.name}: set the host's python to one there")
        if "No module named 'training_platform" in result.stderr:
            raise SshError(
                f"the platform's package is not installed for {self.python} on host {self.name}: test the connection "
                "for how to install it"
            )
        if result.exit_status != 0 or not isinstance(answer, dict):
            detail = (result.stderr.strip() or result.stdout.strip())[-600:]
            raise SshError(f"the platform's agent on {self.name} failed ({verb}, exit {result.exit_status}): {detail}")
        if "error" in answer:
            raise SshError(f"{self.name}: {answer['error']}")
        return answer

    def sftp(self, action: Callable[[asyncssh.SFTPClient], object], timeout: float = COMMAND_TIMEOUT_S):
        return self.client.sftp(self.endpoint, self.credentials(), action, timeout)

    # ---- files -----------------------------------------------------------------------------------------------

    def write_bytes(self, path: PurePosixPath, data: bytes) -> None:
        self.sftp(lambda sftp: write_atomically(sftp, path, data))

    def remove(self, path: PurePosixPath) -> None:
        self.sftp(lambda sftp: remove_path(sftp, path))

    def upload(self, local: Path, remote: PurePosixPath, progress: ProgressFn, done_before: int = 0) -> None:
        """Copy a local file to `remote`, going on from what an interrupted copy left there (same bytes, same
        offsets); `progress` hears the bytes done."""
        total = local.stat().st_size

        async def upload(sftp: asyncssh.SFTPClient) -> None:
            await sftp.makedirs(str(remote.parent), exist_ok=True)
            present = await remote_stat(sftp, remote)
            offset = present.size if present and present.size <= total else 0
            with open(local, "rb") as source:
                source.seek(offset)
                async with sftp.open(str(remote), "r+b" if offset else "wb") as handle:
                    while chunk := source.read(CHUNK_BYTES):
                        await handle.write(chunk, offset)
                        offset += len(chunk)
                        progress(done_before + offset, -1)

        self.sftp(upload, timeout=max(COMMAND_TIMEOUT_S, total / (1024 * 1024)))

    def download_tree(self, remote: PurePosixPath, local: Path) -> int:
        """Copy what `remote` (a folder) holds and `local` lacks or holds at another size; the bytes copied."""

        async def download(sftp: asyncssh.SFTPClient) -> int:
            copied = 0
            if not await sftp.isdir(str(remote)):
                return 0
            for relative, size in await _walk(sftp, remote):
                target = local / relative
                if target.is_file() and target.stat().st_size == size:
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                partial = target.with_name(f".{target.name}.partial")
                await sftp.get(str(remote / relative), str(partial))
                partial.replace(target)
                copied += size
            return copied

        return self.sftp(download, timeout=3600)


async def write_atomically(sftp: asyncssh.SFTPClient, path: PurePosixPath, data: bytes) -> None:
    """Written whole or not at all: a temporary sibling renamed over the target."""
    await sftp.makedirs(str(path.parent), exist_ok=True)
    temporary = str(path.parent / f".{path.name}.partial")
    async with sftp.open(temporary, "wb") as handle:
        await handle.write(data)
    await sftp.posix_rename(temporary, str(path))


async def remove_path(sftp: asyncssh.SFTPClient, path: PurePosixPath) -> None:
    """A file or a folder with all it holds, if it is there."""
    if await sftp.isdir(str(path)):
        await sftp.rmtree(str(path))
    elif await sftp.exists(str(path)):
        await sftp.remove(str(path))


async def remote_stat(sftp: asyncssh.SFTPClient, path: PurePosixPath) -> RemoteStat | None:
    try:
        attributes = await sftp.stat(str(path))
    except asyncssh.SFTPNoSuchFile:
        return None
    mtime_ns = attributes.mtime_ns if attributes.mtime_ns is not None else (attributes.mtime or 0) * 10**9
    return RemoteStat(attributes.size or 0, mtime_ns, stat.S_ISDIR(attributes.permissions or 0))


async def _walk(sftp: asyncssh.SFTPClient, root: PurePosixPath) -> list[tuple[str, int]]:
    """The regular files under `root`: (relative path, size); symbolic links are not followed."""
    found, pending = [], [""]
    while pending:
        relative = pending.pop()
        async for entry in sftp.scandir(str(root / relative) if relative else str(root)):
            name = entry.filename if isinstance(entry.filename, str) else entry.filename.decode()
            if name in (".", ".."):
                continue
            child = posixpath.join(relative, name) if relative else name
            mode = entry.attrs.permissions or 0
            if stat.S_ISDIR(mode):
                pending.append(child)
            elif stat.S_ISREG(mode):
                found.append((child, entry.attrs.size or 0))
    return sorted(found)
