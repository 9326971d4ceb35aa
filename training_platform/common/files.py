"""Small file helpers shared by the platform and the training processes."""

import json
import os
import stat
import tempfile
from collections import deque
from pathlib import Path
from typing import Any


def write_json_atomic(path: Path, data: Any) -> None:
    """Readers never see a half-written file: write a temporary sibling, then rename over the target.

    The data reach the disk before the rename, and the rename before this returns: without the first fsync a
    crash of the machine can leave the new name on an empty file (the rename journaled, the data not yet
    written); without the second, the old file may come back."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    fsync_directory(path.parent)


def make_private(path: Path) -> None:
    """Take every permission of the group and of others from `path`, the owner's left as they are: a home made
    0755 by hand becomes 0700, a database file 0644 becomes 0600 (docs/security.md, "Private files")."""
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        os.chmod(path, mode & ~0o077)


def create_private_file(path: Path) -> None:
    """`path` made 0600 when it does not exist yet (an empty file), else made private as it is."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        make_private(path)


def fsync_directory(directory: Path) -> None:
    """Make the entries of `directory` (a rename, a new file) durable."""
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_json(path: Path) -> Any | None:
    """The parsed file, or None when it does not exist (yet)."""
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError:
        return None


def last_lines(path: Path, limit: int) -> list[str]:
    """The whole lines among a file's last `limit` bytes (none for a missing file); nothing before them is read,
    so a file of many gigabytes costs no more than a small one."""
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        return []
    with handle:
        size = handle.seek(0, os.SEEK_END)
        handle.seek(max(0, size - limit))
        data = handle.read(limit)
    lines = data.decode("utf-8", errors="replace").splitlines()
    return lines[1:] if size > limit else lines  # the first may be cut


def tail_lines(path: Path, count: int, block_size: int = 64 * 1024) -> list[str]:
    """The last `count` lines of a file, reading backwards so a multi-GB log costs only what is returned."""
    if count <= 0 or not path.exists():
        return []
    with open(path, "rb") as handle:
        handle.seek(0, os.SEEK_END)
        position = handle.tell()
        chunks: deque[bytes] = deque()
        newlines = 0
        while position > 0 and newlines <= count:
            step = min(block_size, position)
            position -= step
            handle.seek(position)
            chunk = handle.read(step)
            chunks.appendleft(chunk)
            newlines += chunk.count(b"\n")
    lines = b"".join(chunks).decode("utf-8", errors="replace").splitlines()
    return lines[-count:]
