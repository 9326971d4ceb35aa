"""Where a host's files go: everything the platform writes there lies under the host's work directory.

    <work>/jobs/<job id>/            a job's directory (the same layout as on the platform: contract/layout.py)
    <work>/data/<sha256>/<name>      a synced dataset or model, by content (runners/ssh/content.py)

Every name placed under the work directory is checked first: one path component, no `..`, no control character.
"""

import re
from pathlib import PurePosixPath

MAX_NAME_BYTES = 255
MAX_PATH_BYTES = 1024
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_HEX = re.compile(r"^[0-9a-f]{16,64}$")


def checked_name(name: str, what: str = "name") -> str:
    """`name` if it is one plain path component; ValueError says why not."""
    if not name or name in (".", "..") or "/" in name or _CONTROL.search(name):
        raise ValueError(f"{what} {name!r} is not a plain file name (no '/', '..' or control characters)")
    if len(name.encode()) > MAX_NAME_BYTES:
        raise ValueError(f"{what} is longer than {MAX_NAME_BYTES} bytes")
    return name


def checked_work_dir(path: str) -> str:
    """An absolute, normalised directory with no control characters: where the host's files go."""
    if _CONTROL.search(path) or len(path.encode()) > MAX_PATH_BYTES:
        raise ValueError("the work directory holds a control character or is too long")
    posix = PurePosixPath(path)
    if not posix.is_absolute() or ".." in posix.parts or str(posix) != path.rstrip("/") or path.startswith("//"):
        raise ValueError(f"the work directory must be an absolute path without '..' (and not /), not {path!r}")
    return str(posix)


def checked_executable(path: str) -> str:
    """The remote interpreter: an absolute path, no control characters (it is one quoted word of a command)."""
    if _CONTROL.search(path) or not PurePosixPath(path).is_absolute() or ".." in PurePosixPath(path).parts:
        raise ValueError(f"the remote Python must be an absolute path without '..', not {path!r}")
    return path


class RemotePaths:
    def __init__(self, work_dir: str):
        self.work_dir = PurePosixPath(checked_work_dir(work_dir))

    def job_dir(self, job_id: str) -> PurePosixPath:
        return self.work_dir / "jobs" / checked_name(job_id, "job id")

    def data_path(self, content_hash: str, name: str) -> PurePosixPath:
        if not _HEX.match(content_hash):
            raise ValueError(f"not a content hash: {content_hash!r}")
        return self.work_dir / "data" / content_hash / checked_name(name)

    def inside(self, path: PurePosixPath) -> bool:
        return self.work_dir in path.parents
