"""Where dataset files live inside the platform's data directory, and how uploads get there.

    datasets/.incoming/    uploads being received (a crash leaves only these; cleared at start)
    datasets/files/<id>/   the files of uploaded and derived datasets, named by the platform
    datasets/.reports/     validation and audit reports, downloadable in full

No path is ever built from user input except a file name that has been checked to be a plain name.
"""

import hashlib
import os
import re
import shutil
import tempfile
import uuid
from pathlib import Path

from training_platform.common.files import write_json_atomic
from training_platform.datafiles.layout import SUPPORTED_SUFFIXES, SUPPORTED_TYPES, data_files
from training_platform.errors import FieldError, InvalidInputError, TooLargeError

_PLAIN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._ -]{0,199}$")
_HASH_BLOCK = 1 << 20


def plain_file_name(name: str, field: str = "filename") -> str:
    """`name` if it is a plain file name with a dataset suffix; a user-given name never becomes a path."""
    if not _PLAIN_NAME.match(name) or ".." in name:
        raise InvalidInputError(
            [FieldError(field, f"{name!r} is not a plain file name (letters, digits, '.', '_', '-', space; no path)")]
        )
    if Path(name).suffix.lower() not in SUPPORTED_SUFFIXES:
        raise InvalidInputError([FieldError(field, f"{name!r} must end in {SUPPORTED_TYPES}")])
    return name


def content_hash(path: Path, split: str | None = None) -> str:
    """sha256 of a file, or of the data files of a folder's split (names and contents, in reading order)."""
    files = data_files(path, split=split)
    if path.is_file():
        return _file_hash(path)
    digest = hashlib.sha256()
    for file in files:
        digest.update(f"{file.relative_to(path)}\0{_file_hash(file)}\n".encode())
    return digest.hexdigest()


def _file_hash(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


class StagedUpload:
    """An upload being received: streamed to a temporary file, hashed and counted as it arrives."""

    def __init__(self, directory: Path, filename: str, limit: int):
        directory.mkdir(parents=True, exist_ok=True)
        self.filename = filename
        self.limit = limit
        self.size = 0
        self._digest = hashlib.sha256()
        # The suffix is kept so the staged file reads as what it is before it gets its final place.
        fd, name = tempfile.mkstemp(dir=directory, suffix=Path(filename).suffix.lower())
        self.path = Path(name)
        self._handle = os.fdopen(fd, "wb")

    def write(self, chunk: bytes) -> None:
        self.size += len(chunk)
        if self.size > self.limit:
            self.discard()
            raise TooLargeError(f"the upload is larger than the limit of {self.limit} bytes")
        self._digest.update(chunk)
        self._handle.write(chunk)

    def finish(self) -> str:
        """Close the file; returns the content hash."""
        self._handle.close()
        return self._digest.hexdigest()

    def discard(self) -> None:
        self._handle.close()
        self.path.unlink(missing_ok=True)

    def __enter__(self) -> "StagedUpload":
        return self

    def __exit__(self, *exc_info) -> None:
        # Whatever was not moved into place (an error, a refusal) leaves nothing behind.
        self.discard()


class DatasetStorage:
    def __init__(self, root: Path, max_upload_bytes: int):
        self.root = root
        self.max_upload_bytes = max_upload_bytes
        self.incoming_dir = root / ".incoming"
        self.files_dir = root / "files"
        self.reports_dir = root / ".reports"

    def clear_incoming(self) -> None:
        """Uploads cut off by a crash; called at start, when no upload can be in progress."""
        shutil.rmtree(self.incoming_dir, ignore_errors=True)

    def stage(self, filename: str) -> StagedUpload:
        return StagedUpload(self.incoming_dir, plain_file_name(filename), self.max_upload_bytes)

    def new_file(self, suffix: str) -> Path:
        """A fresh path in the incoming area, for a derived file written by the platform."""
        self.incoming_dir.mkdir(parents=True, exist_ok=True)
        return self.incoming_dir / f"{uuid.uuid4().hex}{suffix}"

    def final_path(self, dataset_id: str, filename: str) -> Path:
        return self.files_dir / dataset_id / plain_file_name(filename)

    def place(self, staged: Path, final: Path) -> None:
        final.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staged, final)

    def remove_dataset_files(self, dataset_id: str) -> None:
        shutil.rmtree(self.files_dir / dataset_id, ignore_errors=True)

    def write_report(self, report_id: str, report: dict) -> Path:
        path = self.reports_dir / f"{report_id}.json"
        write_json_atomic(path, report)
        return path

    def report_path(self, report_id: str) -> Path:
        if not re.fullmatch(r"[0-9a-f]{32}", report_id):
            raise InvalidInputError([FieldError("report", "not a report id")])
        return self.reports_dir / f"{report_id}.json"
