"""The file a TRL training process is started with: the job, resolved, as JSON."""

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from training_platform.jobs.layout import JobLayout
from training_platform.jobs.params import Algorithm, TrainingParams, parse_params


class RunConfig(BaseModel):
    job_id: str
    algorithm: Algorithm
    model_path: str
    dataset_paths: list[str]
    eval_dataset_path: str | None = None
    # Field mapping of each data path that came from a registered dataset ({"prompt": "question"}).
    dataset_fields: dict[str, dict[str, str]] = {}
    params: dict[str, Any]
    output_dir: str
    cpu_threads: int = 0

    @property
    def layout(self) -> JobLayout:
        return JobLayout(self.job_id, Path(self.output_dir))

    def training_params(self) -> TrainingParams:
        return parse_params(self.algorithm, self.params)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.model_dump_json(indent=1), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> "RunConfig":
        return cls.model_validate_json(path.read_text(encoding="utf-8"))
