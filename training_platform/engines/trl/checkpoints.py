"""TRL checkpoint layout: `checkpoints/checkpoint-N/` per save and `final/` for the exported model.

transformers writes a checkpoint in place and its own resume picks the highest folder even when the write was
cut short. The platform therefore marks a checkpoint complete only after the trainer reports it saved (on_save),
and resumes only from marked ones.
"""

import re
from datetime import UTC, datetime
from pathlib import Path

from training_platform.common.progress import ProgressCallback
from training_platform.contract.layout import JobLayout
from training_platform.engines.base import CheckpointInfo
from training_platform.engines.checkpoints import checkpoint_info, copy_model_directory

COMPLETE_MARKER = ".platform_complete"
_CHECKPOINT_NAME = re.compile(r"^checkpoint-(\d+)$")
# What a transformers checkpoint holds besides the model: needed to resume, not to use the model.
TRAINING_STATE_FILES = {"optimizer.pt", "scheduler.pt", "trainer_state.json", "training_args.bin", "scaler.pt"}


def mark_complete(checkpoint_dir: Path) -> None:
    (checkpoint_dir / COMPLETE_MARKER).write_text(datetime.now(UTC).isoformat(), encoding="utf-8")


def is_complete(checkpoint_dir: Path) -> bool:
    return (checkpoint_dir / COMPLETE_MARKER).is_file()


def list_checkpoints(layout: JobLayout) -> list[CheckpointInfo]:
    found = []
    if layout.checkpoints_dir.is_dir():
        for path in layout.checkpoints_dir.iterdir():
            match = _CHECKPOINT_NAME.match(path.name)
            if match and path.is_dir():
                found.append(checkpoint_info(path, int(match.group(1)), is_complete(path), "checkpoint"))
    found.sort(key=lambda info: info.step)
    final = layout.final_model_dir
    if final.is_dir():
        found.append(checkpoint_info(final, None, is_complete(final), "final"))
    return found


def export(checkpoint: Path, target: Path, progress: ProgressCallback) -> Path:
    """A checkpoint (or adapter) directory is already in Hugging Face format: copy its model files."""
    return copy_model_directory(
        checkpoint,
        target,
        progress,
        skip=lambda name: name in TRAINING_STATE_FILES or name.startswith("rng_state") or name == COMPLETE_MARKER,
    )
