"""TRL checkpoint layout: `checkpoints/checkpoint-N/` per save and `final/` for the exported model.

transformers writes a checkpoint in place and its own resume picks the highest folder even when the write was
cut short. The platform therefore marks a checkpoint complete only after the trainer reports it saved (on_save),
and resumes only from marked ones. Before the mark the platform's callback writes `platform_state.json` beside
transformers' files: the learning rate the run was configured with, the live learning-rate scale in force and the
ids of the requests that made it, so that a resumed run neither applies a request twice nor loses a new rate.
"""

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from training_platform.common.files import read_json, write_json_atomic
from training_platform.common.progress import ProgressCallback
from training_platform.contract.layout import JobLayout
from training_platform.engines.base import CheckpointInfo
from training_platform.engines.checkpoints import checkpoint_info, copy_model_directory

COMPLETE_MARKER = ".platform_complete"
RUN_STATE = "platform_state.json"
_CHECKPOINT_NAME = re.compile(r"^checkpoint-(\d+)$")
# What a transformers checkpoint holds besides the model: needed to resume, not to use the model.
TRAINING_STATE_FILES = {
    "optimizer.pt",
    "scheduler.pt",
    "trainer_state.json",
    "training_args.bin",
    "scaler.pt",
    RUN_STATE,
}


def mark_complete(checkpoint_dir: Path) -> None:
    (checkpoint_dir / COMPLETE_MARKER).write_text(datetime.now(UTC).isoformat(), encoding="utf-8")


def checkpoint_dir(output_dir: Path, step: int) -> Path:
    """Where transformers saves the checkpoint of `step` (the trainer's output_dir is the job's checkpoints/)."""
    return output_dir / f"checkpoint-{step}"


def write_run_state(checkpoint: Path, state: dict[str, Any]) -> None:
    write_json_atomic(checkpoint / RUN_STATE, state)


def read_run_state(checkpoint: Path) -> dict[str, Any] | None:
    """The platform's state saved with a checkpoint; None for a checkpoint without one (or an unreadable one)."""
    try:
        state = read_json(checkpoint / RUN_STATE)
    except (OSError, ValueError, RecursionError):
        return None
    return state if isinstance(state, dict) else None


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
