"""What every engine's checkpoint listing and export share."""

import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from training_platform.common.progress import ProgressCallback, ignore_progress
from training_platform.engines.base import CheckpointInfo


def checkpoint_info(path: Path, step: int | None, complete: bool, kind: str) -> CheckpointInfo:
    files = [f for f in path.rglob("*") if f.is_file()]
    return CheckpointInfo(
        name=path.name,
        step=step,
        path=path,
        complete=complete,
        kind=kind,
        created_at=datetime.fromtimestamp(path.stat().st_mtime, UTC),
        size_bytes=sum(f.stat().st_size for f in files),
    )


def copy_model_directory(
    source: Path,
    target: Path,
    progress: ProgressCallback = ignore_progress,
    skip: Callable[[str], bool] = lambda _name: False,
) -> Path:
    """Copy a directory that is already a Hugging Face model (files named by `skip` left out), reporting the
    share of bytes copied; the target appears only once complete."""
    total = sum(f.stat().st_size for f in source.rglob("*") if f.is_file() and not skip(f.name)) or 1
    copied = 0

    def copy(from_path: str, to_path: str) -> None:
        nonlocal copied
        shutil.copy2(from_path, to_path)
        copied += Path(from_path).stat().st_size
        progress(copied / total, f"copied {copied / 2**20:.1f} of {total / 2**20:.1f} MiB")

    staging = target.with_name(f".{target.name}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(
        source, staging, ignore=lambda _dir, names: [name for name in names if skip(name)], copy_function=copy
    )
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    return target
