"""Where a job's files live. The platform and the training process agree on this layout."""

from dataclasses import dataclass
from pathlib import Path

from training_platform.common.paths import PRIVATE_DIR


@dataclass(frozen=True)
class JobLayout:
    job_id: str
    root: Path

    @property
    def config_path(self) -> Path:
        return self.root / "run_config.json"

    @property
    def resolved_config_path(self) -> Path:
        """The configuration the engine resolved from the run (TRL: its trainer config, every field), as it trains."""
        return self.root / "resolved_config.json"

    @property
    def metrics_path(self) -> Path:
        return self.root / f"{self.job_id}_metrics.jsonl"

    @property
    def status_path(self) -> Path:
        return self.root / f"{self.job_id}_status.json"

    @property
    def control_path(self) -> Path:
        return self.root / "control.json"

    @property
    def lr_requests_dir(self) -> Path:
        """Requests to scale the learning rate live: one file per request (contract/control.py)."""
        return self.root / "lr_requests"

    @property
    def imports_dir(self) -> Path:
        """Metrics files a client sent for the job (`tplat metrics ingest`), where no request may read them back as a
        model or a dataset (common/paths.py: PRIVATE_DIR)."""
        return self.root / PRIVATE_DIR / "imports"

    @property
    def logs_dir(self) -> Path:
        return self.root / "logs"

    @property
    def stdout_path(self) -> Path:
        return self.logs_dir / "stdout.log"

    @property
    def stderr_path(self) -> Path:
        return self.logs_dir / "stderr.log"

    @property
    def checkpoints_dir(self) -> Path:
        return self.root / "checkpoints"

    @property
    def exports_dir(self) -> Path:
        """Checkpoints exported as Hugging Face directories, one folder each."""
        return self.root / "exports"

    @property
    def final_model_dir(self) -> Path:
        return self.root / "final"

    @property
    def samples_path(self) -> Path:
        """An evaluation run's scored samples, one JSON line each, appended as they are scored."""
        return self.root / "samples.jsonl"

    @property
    def results_path(self) -> Path:
        """An evaluation run's aggregates (overall, per category, with confidence intervals), written at its end."""
        return self.root / "results.json"

    def log_path(self, stream: str) -> Path:
        return {"stdout": self.stdout_path, "stderr": self.stderr_path}[stream]
