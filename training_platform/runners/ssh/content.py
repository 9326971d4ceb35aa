"""What a synced file or folder is: the sha256 of its content, computed the same way on both sides.

A file's hash is the sha256 of its bytes; a folder's, the sha256 of its files' relative paths and hashes in
sorted order (symbolic links are not followed: a folder is what it holds). Standard library only: the remote
side computes it with the platform's package and nothing else.
"""

import hashlib
import os
from pathlib import Path

CHUNK_BYTES = 1024 * 1024


def file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def files_of(root: Path) -> list[Path]:
    """The regular files of a folder, by relative path in sorted order (a file: itself)."""
    if root.is_file():
        return [root]
    found = []
    for folder, folders, names in os.walk(root, followlinks=False):
        folders.sort()
        for name in names:
            path = Path(folder) / name
            if path.is_file() and not path.is_symlink():
                found.append(path)
    return sorted(found, key=lambda path: path.relative_to(root).as_posix())


def content_hash(root: Path) -> str:
    if root.is_file():
        return file_hash(root)
    digest = hashlib.sha256()
    for path in files_of(root):
        digest.update(f"{path.relative_to(root).as_posix()}\0{file_hash(path)}\n".encode())
    return digest.hexdigest()
