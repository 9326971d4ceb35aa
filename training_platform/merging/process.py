"""The surgery run's process, top to bottom: read the RunSpec, write the result under a staging name (mergekit for a
merge, the streaming averager for an average, peft for a LoRA fold), record how it was made in `surgery.json`
with each input's content hash, and rename it to the job's final model directory only when whole.

Progress is tensors written of the total, in the status file every engine's process keeps (contract/status.py). The
inputs are hashed on a thread while the weights are combined: both read the same files, and the hash costs no
wall time of its own when the merge is the slower of the two (benchmarks/surgery).
"""

import hashlib
import json
import logging
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import version
from pathlib import Path

from training_platform.contract.run import RunSpec
from training_platform.contract.status import StatusReporter, TrainingState
from training_platform.contract.surgery import (
    SURGERY_RECORD,
    AverageParams,
    LoraFoldParams,
    MergeParams,
    ModelSource,
    SurgeryRecord,
)
from training_platform.merging.engine import staging_dir

log = logging.getLogger(__name__)
HASH_CHUNK = 8 << 20
# What a model's content is, for its hash: its weights and the files that decide how they are read.
HASHED_SUFFIXES = (".safetensors", ".json", ".bin")


def main(config_path: Path) -> int:
    spec = RunSpec.load(config_path)
    layout = spec.layout
    params = spec.params
    reporter = StatusReporter.starting(layout.status_path, spec.job_id, min_interval=1.0)
    reporter.write(force=True)
    staging = staging_dir(layout)
    started = time.time()
    try:
        shutil.rmtree(staging, ignore_errors=True)  # a stopped attempt's remains
        shutil.rmtree(layout.final_model_dir, ignore_errors=True)
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="hash") as pool:
            hashes = pool.submit(lambda: [content_hash(Path(source.path)) for source in params.sources])
            _run(params, staging, _progress(reporter), cuda=params.num_gpus > 0)
            digests = hashes.result()
            inputs = [_input_entry(source, digest) for source, digest in zip(params.sources, digests, strict=True)]
        record = SurgeryRecord(
            operation=params.algorithm,
            job_id=spec.job_id,
            inputs=inputs,
            parameters=params.model_dump(mode="json", exclude={"algorithm"}),
            platform_version=version("training-platform"),
            seconds=round(time.time() - started, 3),
        )
        (staging / SURGERY_RECORD).write_text(record.model_dump_json(indent=1), encoding="utf-8")
        staging.rename(layout.final_model_dir)
        reporter.finish(TrainingState.COMPLETED, f"{params.algorithm} written to {layout.final_model_dir}")
        return 0
    except BaseException as error:
        shutil.rmtree(staging, ignore_errors=True)
        reporter.finish(TrainingState.FAILED, f"{type(error).__name__}: {error}")
        raise


def _run(params, staging: Path, progress, cuda: bool) -> None:
    if isinstance(params, MergeParams):
        from training_platform.merging.mergekit_run import run_merge_with_progress

        run_merge_with_progress(params, staging, progress, cuda=cuda)
    elif isinstance(params, AverageParams):
        from training_platform.merging.averaging import average_checkpoints

        paths = [Path(source.path) for source in params.checkpoints]
        average_checkpoints(paths, params.weights(), staging, dtype=params.dtype, progress=progress)
    elif isinstance(params, LoraFoldParams):
        from training_platform.merging.lora import fold_lora

        base, adapter = Path(params.base_model.path), Path(params.adapter.path)
        fold_lora(base, adapter, staging, dtype=params.dtype, progress=progress)
    else:
        raise TypeError(f"not a surgery run: {params.algorithm}")


def _progress(reporter: StatusReporter):
    begun = False

    def report(done: int, total: int) -> None:
        nonlocal begun
        if not begun:
            reporter.begin(total, 0)
            begun = True
        reporter.step(done)

    return report


def content_hash(directory: Path) -> str:
    """sha256 over a model directory's weight and configuration files, in name order (each file's name and bytes),
    so the same model copied elsewhere hashes the same."""
    digest = hashlib.sha256()
    for path in sorted(p for p in directory.iterdir() if p.is_file() and p.suffix in HASHED_SUFFIXES):
        digest.update(path.name.encode() + b"\0")
        with open(path, "rb") as handle:
            while chunk := handle.read(HASH_CHUNK):
                digest.update(chunk)
    return digest.hexdigest()


def _input_entry(source: ModelSource, digest: str) -> dict:
    return {**source.model_dump(mode="json"), "sha256": digest}


def read_record(directory: Path) -> SurgeryRecord | None:
    path = directory / SURGERY_RECORD
    if not path.is_file():
        return None
    return SurgeryRecord.model_validate(json.loads(path.read_text(encoding="utf-8")))
