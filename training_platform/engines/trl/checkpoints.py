"""TRL checkpoint layout: `checkpoints/checkpoint-N/` per save and `final/` for the exported model.

transformers writes a checkpoint in place and its own resume picks the highest folder even when the
write was cut short (research: trl-cpu-findings §3). The platform therefore marks a checkpoint complete
only after the trainer reports it saved (on_save), and resumes only from marked ones.
"""

import re
import shutil
from datetime import UTC, datetime
from pathlib import Path

from training_platform.engines.base import CheckpointInfo
from training_platform.jobs.layout import JobLayout

COMPLETE_MARKER = ".platform_complete"
_CHECKPOINT_NAME = re.compile(r"^checkpoint-(\d+)$")


def mark_complete(checkpoint_dir: Path) -> None:
    (checkpoint_dir / COMPLETE_MARKER).write_text(datetime.now(UTC).isoformat(), encoding="utf-8")


def is_complete(checkpoint_dir: Path) -> bool:
    return (checkpoint_dir / COMPLETE_MARKER).is_file()


def _info(path: Path, step: int | None, kind: str) -> CheckpointInfo:
    files = [f for f in path.rglob("*") if f.is_file()]
    return CheckpointInfo(
        name=path.name,
        step=step,
        path=path,
        complete=is_complete(path),
        kind=kind,
        created_at=datetime.fromtimestamp(path.stat().st_mtime, UTC),
        size_bytes=sum(f.stat().st_size for f in files),
    )


def list_checkpoints(layout: JobLayout) -> list[CheckpointInfo]:
    found = []
    if layout.checkpoints_dir.is_dir():
        for path in layout.checkpoints_dir.iterdir():
            match = _CHECKPOINT_NAME.match(path.name)
            if match and path.is_dir():
                found.append(_info(path, int(match.group(1)), "checkpoint"))
    found.sort(key=lambda info: info.step)
    if layout.final_model_dir.is_dir():
        found.append(_info(layout.final_model_dir, None, "final"))
    return found


# What a transformers checkpoint holds besides the model: needed to resume, not to use the model.
TRAINING_STATE_FILES = {"optimizer.pt", "scheduler.pt", "trainer_state.json", "training_args.bin", "scaler.pt"}


def export(checkpoint: Path, target: Path) -> Path:
    """A checkpoint (or adapter) directory is already in Hugging Face format: copy its model files."""
    staging = target.with_name(f".{target.name}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(
        checkpoint,
        staging,
        ignore=lambda _dir, names: [
            n for n in names if n in TRAINING_STATE_FILES or n.startswith("rng_state") or n == COMPLETE_MARKER
        ],
    )
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    return target
