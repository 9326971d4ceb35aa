"""verl's (0.9.1) checkpoint layout and export through verl's own model merger.

`<dir>/global_step_N/` (SFT: model/optim/extra_state_world_size_W_rank_R.pt, data_R.pt, huggingface/;
PPO: actor/ and critic/ with the same files, data.pt) and `<dir>/latest_checkpointed_iteration.txt`,
which verl writes after a checkpoint is whole: a step beyond it was cut short and is never resumed.
"""

import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from training_platform.common.progress import ProgressCallback, ignore_progress
from training_platform.contract.layout import JobLayout
from training_platform.engines.base import CheckpointInfo
from training_platform.engines.checkpoints import checkpoint_info

LATEST_FILE = "latest_checkpointed_iteration.txt"
MERGE_TIMEOUT_S = 3600.0
MERGE_POLL_S = 1.0
_STEP_DIR = re.compile(r"^global_step_(\d+)$")


def latest_step(directory: Path) -> int | None:
    try:
        return int((directory / LATEST_FILE).read_text().strip())
    except (FileNotFoundError, ValueError):
        return None


def list_checkpoints(layout: JobLayout) -> list[CheckpointInfo]:
    found = []
    latest = latest_step(layout.checkpoints_dir)
    if layout.checkpoints_dir.is_dir():
        for path in layout.checkpoints_dir.iterdir():
            match = _STEP_DIR.match(path.name)
            if match and path.is_dir():
                step = int(match.group(1))
                found.append(checkpoint_info(path, step, latest is not None and step <= latest, "checkpoint"))
    found.sort(key=lambda info: info.step)
    if layout.final_model_dir.is_dir():
        final = layout.final_model_dir
        found.append(checkpoint_info(final, None, (final / "config.json").is_file(), "final"))
    return found


def merge_command(checkpoint: Path, target: Path, python: str) -> list[str]:
    """`python -m verl.model_merger merge` for an SFT checkpoint or a PPO checkpoint's actor."""
    local_dir = checkpoint / "actor" if (checkpoint / "actor").is_dir() else checkpoint
    return [
        python,
        "-m",
        "verl.model_merger",
        "merge",
        "--backend",
        "fsdp",
        "--local_dir",
        str(local_dir),
        "--target_dir",
        str(target),
    ]


def export(
    checkpoint: Path,
    target: Path,
    python: str,
    env: dict[str, str],
    progress: ProgressCallback = ignore_progress,
    timeout: float = MERGE_TIMEOUT_S,
) -> Path:
    """Merge a sharded checkpoint into a Hugging Face directory (LoRA adapters included, as lora_adapter/). The
    merger cannot say how far it is; what it has written so far is the progress message."""
    staging = target.with_name(f".{target.name}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    deadline = time.monotonic() + timeout
    with tempfile.TemporaryFile() as errors:
        merger = subprocess.Popen(merge_command(checkpoint, staging, python), env=env, stdout=errors, stderr=errors)
        try:
            while merger.poll() is None:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"verl.model_merger did not finish within {timeout:.0f} s")
                progress(0.0, f"verl's model merger: {_size(staging) / 2**20:.1f} MiB written")
                time.sleep(MERGE_POLL_S)
        finally:
            if merger.poll() is None:
                merger.kill()
                merger.wait()
        if merger.returncode != 0:
            errors.seek(0)
            output = errors.read().decode("utf-8", errors="replace")
            raise RuntimeError(f"verl.model_merger failed ({merger.returncode}): {output[-2000:]}")
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    return target


def _size(directory: Path) -> int:
    return sum(f.stat().st_size for f in directory.rglob("*") if f.is_file()) if directory.is_dir() else 0
