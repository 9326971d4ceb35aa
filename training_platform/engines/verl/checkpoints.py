"""verl's checkpoint layout (verl-0.9.1-findings §6) and export through verl's own model merger.

`<dir>/global_step_N/` (SFT: model/optim/extra_state_world_size_W_rank_R.pt, data_R.pt, huggingface/;
PPO: actor/ and critic/ with the same files, data.pt) and `<dir>/latest_checkpointed_iteration.txt`,
which verl writes after a checkpoint is whole: a step beyond it was cut short and is never resumed.
"""

import re
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from training_platform.engines.base import CheckpointInfo
from training_platform.jobs.layout import JobLayout

LATEST_FILE = "latest_checkpointed_iteration.txt"
_STEP_DIR = re.compile(r"^global_step_(\d+)$")


def latest_step(directory: Path) -> int | None:
    try:
        return int((directory / LATEST_FILE).read_text().strip())
    except (FileNotFoundError, ValueError):
        return None


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def _info(path: Path, step: int | None, complete: bool, kind: str) -> CheckpointInfo:
    created = datetime.fromtimestamp(path.stat().st_mtime, UTC)
    return CheckpointInfo(path.name, step, path, complete, kind, created, _size(path))


def list_checkpoints(layout: JobLayout) -> list[CheckpointInfo]:
    found = []
    latest = latest_step(layout.checkpoints_dir)
    if layout.checkpoints_dir.is_dir():
        for path in layout.checkpoints_dir.iterdir():
            match = _STEP_DIR.match(path.name)
            if match and path.is_dir():
                step = int(match.group(1))
                found.append(_info(path, step, latest is not None and step <= latest, "checkpoint"))
    found.sort(key=lambda info: info.step)
    if layout.final_model_dir.is_dir():
        found.append(_info(layout.final_model_dir, None, (layout.final_model_dir / "config.json").is_file(), "final"))
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


def export(checkpoint: Path, target: Path, python: str, env: dict[str, str], timeout: float = 600) -> Path:
    """Merge a sharded checkpoint into a Hugging Face directory (LoRA adapters included, as lora_adapter/)."""
    staging = target.with_name(f".{target.name}.partial")
    result = subprocess.run(
        merge_command(checkpoint, staging, python), env=env, capture_output=True, text=True, timeout=timeout
    )
    if result.returncode != 0:
        raise RuntimeError(f"verl.model_merger failed ({result.returncode}): {result.stderr[-2000:]}")
    if target.exists():
        import shutil

        shutil.rmtree(target)
    staging.rename(target)
    return target
