"""The evaluation run's process, top to bottom: read the RunSpec and the eval dataset, open the sample file and skip
what it already holds, generate the rest through the target, score each answer, append each scored sample to the
file as it is scored, and write the aggregates with their confidence intervals once every sample is scored.

The sample file is the run's truth and its resume point: a line is appended and flushed to disk once its sample is
scored, so a run stopped, paused or killed at any moment loses at most the batch in flight, and a resumed run
never records a sample twice and generates again only that batch (each batch is logged by index once generated
and once recorded; the tests count them). A line
cut short by a crash is dropped when the file is opened again: it was never complete.

Progress is samples scored of the total, in the status file every engine's process keeps (contract/status.py); a
pause request (contract/control.py) is honoured between batches.
"""

import logging
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from training_platform.common.files import write_json_atomic
from training_platform.contract.control import ControlAction, ControlReader
from training_platform.contract.evaluation import (
    ApiTarget,
    EvalParams,
    EvalResults,
    GenerationSettings,
    MetricSpec,
    SampleRecord,
    read_samples,
    secret_variable,
)
from training_platform.contract.run import RunSpec
from training_platform.contract.status import StatusReporter, TrainingState
from training_platform.datafiles.rows import read_rows
from training_platform.evaluation.aggregate import aggregate
from training_platform.evaluation.metrics import Sample, Scorer, build_scorers
from training_platform.evaluation.samples import eval_samples

log = logging.getLogger(__name__)


def main(config_path: Path, reward_code_dir: Path | None = None) -> int:
    spec = RunSpec.load(config_path)
    layout = spec.layout
    params: EvalParams = spec.params
    reporter = StatusReporter.starting(layout.status_path, spec.job_id, min_interval=1.0)
    reporter.write(force=True)
    control = ControlReader(layout.control_path)
    started = time.time()
    generators = []
    try:
        rows = read_rows(spec.dataset_paths, spec.dataset_formats, "eval")
        samples = eval_samples(rows, params.limit)
        sample_file = SampleFile(layout.samples_path)
        pending = [sample for sample in samples if sample.index not in sample_file.done]
        reporter.begin(len(samples), len(samples) - len(pending))
        log.info(
            "%d samples, %d already scored, %d to generate", len(samples), len(samples) - len(pending), len(pending)
        )
        device = "cuda" if params.num_gpus else "cpu"

        def opened(target):
            from training_platform.evaluation.targets import open_generator

            generator = open_generator(target, api_key(target), device)
            generators.append(generator)
            return generator

        scorers = build_scorers(
            params.metrics, judge=lambda metric: _judge(metric, opened), reward_code_dir=reward_code_dir
        )
        generator = opened(params.target) if pending else None
        for batch, outputs, seconds in _generated(generator, pending, params):
            records = _scored(batch, outputs, scorers, seconds / len(batch))
            sample_file.append(records)
            log.info("scored samples %s", ",".join(str(sample.index) for sample in batch))
            reporter.step(len(sample_file.done))
            if control.pending_action() == ControlAction.PAUSE:
                reporter.finish(TrainingState.PAUSED, f"paused after {len(sample_file.done)} of {len(samples)} samples")
                return 0
        records = sample_file.read()
        results = aggregate(samples, records, scorers, params, seconds=time.time() - started)
        write_json_atomic(layout.results_path, results.model_dump(mode="json"))
        reporter.finish(TrainingState.COMPLETED, _summary(results))
        return 0
    except BaseException as error:
        reporter.finish(TrainingState.FAILED, f"{type(error).__name__}: {error}")
        raise
    finally:
        for generator in generators:
            generator.close()


def api_key(target) -> str | None:
    """The target's API key, from the environment the platform started this process with (never a file)."""
    if not isinstance(target, ApiTarget) or target.api_key_secret is None:
        return None
    variable = secret_variable(target.api_key_secret)
    if variable not in os.environ:
        raise RuntimeError(f"the secret {target.api_key_secret!r} did not reach this process")
    return os.environ[variable]


def _judge(metric: MetricSpec, opened: Callable) -> Callable[[list[str]], list[str]]:
    generator = opened(metric.target)
    settings = GenerationSettings(max_new_tokens=metric.max_new_tokens, temperature=0.0)  # a judge judges greedily

    def judge(prompts: list[str]) -> list[str]:
        return [answers[0] for answers in generator.generate(prompts, settings)]

    return judge


def _generated(
    generator, pending: list[Sample], params: EvalParams
) -> Iterator[tuple[list[Sample], list[list[str]], float]]:
    """The pending samples in batches with their answers: a local model's batch size; for an endpoint, enough
    prompts to keep every allowed request in flight while the previous batch is scored."""
    target = params.target
    size = target.concurrency * 4 if isinstance(target, ApiTarget) else target.batch_size
    for start in range(0, len(pending), size):
        batch = pending[start : start + size]
        begun = time.perf_counter()
        outputs = generator.generate([sample.prompt for sample in batch], params.generation, batch[0].index)
        log.info("generated samples %s", ",".join(str(sample.index) for sample in batch))
        yield batch, outputs, time.perf_counter() - begun


def _scored(batch: list[Sample], outputs: list[list[str]], scorers: list[Scorer], seconds: float) -> list[SampleRecord]:
    scores = [scorer.score_batch(batch, outputs) for scorer in scorers]
    records = []
    for position, (sample, answers) in enumerate(zip(batch, outputs, strict=True)):
        values, details = {}, {}
        for per_scorer in scores:
            values.update(per_scorer[position].values)
            details.update(per_scorer[position].details)
        records.append(
            SampleRecord(
                index=sample.index,
                category=sample.category,
                prompt=sample.prompt,
                references=sample.references,
                outputs=answers,
                values=values,
                details=details,
                seconds=round(seconds, 4),
            )
        )
    return records


def _summary(results: EvalResults) -> str:
    shown = ", ".join(
        f"{key} {estimate.value:.4g}" for key, estimate in results.overall.items() if estimate.value is not None
    )
    return f"{results.samples} samples scored: {shown}"


class SampleFile:
    """The run's sample file: one complete JSON line per scored sample, appended and flushed to disk."""

    def __init__(self, path: Path):
        self.path = path
        self._repair()
        self.done: set[int] = {record.index for record in self.read()}

    def _repair(self) -> None:
        """Drop a last line a crash cut short: it never reached its newline, so its sample was never recorded."""
        if not self.path.exists():
            return
        with open(self.path, "rb+") as handle:
            data = handle.read()
            if data and not data.endswith(b"\n"):
                handle.truncate(data.rfind(b"\n") + 1)
                os.fsync(handle.fileno())

    def read(self) -> list[SampleRecord]:
        return read_samples(self.path)

    def append(self, records: list[SampleRecord]) -> None:
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write("".join(record.model_dump_json() + "\n" for record in records))
            handle.flush()
            os.fsync(handle.fileno())
        self.done.update(record.index for record in records)
