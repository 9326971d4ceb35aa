"""Copying a local file or folder to a host by content: `<work>/data/<sha256>/<name>`.

A copy is made under a hidden partial name, file by file, each going on from what an interrupted copy left; it
becomes the synced path only once the host computed the same content hash (runners/ssh/content.py), so a synced
path always holds exactly what was synced and two syncs of one content share one copy.
"""

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import asyncssh

from training_platform.runners.ssh.connection import SshError
from training_platform.runners.ssh.content import content_hash, files_of
from training_platform.runners.ssh.host import ProgressFn, RemoteHost, remove_path

# A folder of more files than this is not what a run reads (a home directory named by mistake).
MAX_FILES = 10_000


@dataclass(frozen=True)
class Content:
    path: Path
    content_hash: str
    size: int
    files: list[Path]

    @classmethod
    def of(cls, path: Path) -> "Content":
        files = files_of(path)
        if len(files) > MAX_FILES:
            raise SshError(f"{path} holds over {MAX_FILES} files: not synced")
        return cls(path, content_hash(path), sum(file.stat().st_size for file in files), files)


def remote_hash(host: RemoteHost, path: PurePosixPath) -> str | None:
    return host.agent("hash", {"paths": [str(path)]})["hashes"][str(path)]


def sync(host: RemoteHost, content: Content, progress: ProgressFn) -> PurePosixPath:
    """The synced path of `content` on the host, copied there first unless it is there already."""
    target = host.paths.data_path(content.content_hash, content.path.name)
    if remote_hash(host, target) == content.content_hash:
        progress(content.size, content.size)
        return target
    partial = target.parent / f".{target.name}.partial"
    done = 0
    for file in content.files:
        remote = partial if file == content.path else partial / file.relative_to(content.path).as_posix()
        host.upload(file, remote, lambda sent, _total: progress(sent, content.size), done_before=done)
        done += file.stat().st_size
        progress(done, content.size)
    found = remote_hash(host, partial)
    if found != content.content_hash:
        host.remove(partial)
        raise SshError(
            f"the copy of {content.path} on {host.name} has another content hash ({found}) than here "
            f"({content.content_hash}): removed, sync it again"
        )
    host.sftp(lambda sftp: _replace(sftp, partial, target))
    return target


async def _replace(sftp: asyncssh.SFTPClient, partial: PurePosixPath, target: PurePosixPath) -> None:
    await remove_path(sftp, target)  # a copy that no longer holds its content (changed there by hand)
    await sftp.posix_rename(str(partial), str(target))
