"""Registered base models: a name for a local Hugging Face model directory, with what its config says."""

import json
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from training_platform.common.changes import Change, report
from training_platform.common.paths import checked_path
from training_platform.db.tables import RegisteredModel
from training_platform.errors import ConflictError, FieldError, InvalidInputError
from training_platform.models.schemas import ModelRead, ModelRegister
from training_platform.models.store import ModelStore


def count_parameters(directory: Path) -> int | None:
    """Parameters stored in the directory's safetensors files, read from their headers (no weights loaded)."""
    from safetensors import safe_open

    files = sorted(directory.glob("*.safetensors"))
    if not files:
        return None
    total = 0
    for file in files:
        with safe_open(file, framework="numpy") as handle:
            for key in handle.keys():
                shape = handle.get_slice(key).get_shape()
                count = 1
                for dim in shape:
                    count *= dim
                total += count
    return total


def model_dir_problem(path: Path) -> str | None:
    """Why `path` is not a usable Hugging Face model directory, or None if it is one."""
    if not path.is_dir():
        return f"{path} does not exist or is not a directory"
    config_path = path / "config.json"
    if not config_path.is_file():
        return f"{path} is not a Hugging Face model directory (no config.json)"
    try:
        json.loads(config_path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        return f"{config_path} is not valid JSON: {error}"
    return None


class ModelService:
    def __init__(self, store: ModelStore, path_roots: Sequence[Path]):
        self.store = store
        self.path_roots = path_roots  # where models may be read from (docs/security.md)

    def register(self, request: ModelRegister) -> ModelRead:
        # Under the data roots first: nothing is said about a path outside them, not even whether it exists.
        path = checked_path(request.path, self.path_roots, "path")
        if problem := model_dir_problem(path):
            raise InvalidInputError([FieldError("path", problem)])
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
        if self.store.name_taken(request.name):
            raise ConflictError(f"a model named '{request.name}' is already registered")
        model = RegisteredModel(
            id=uuid.uuid4().hex,
            name=request.name,
            path=str(path),
            architecture=str(config.get("model_type", "")),
            num_parameters=count_parameters(path),
            description=request.description,
        )
        model = self.store.add(model)
        report(Change("model", model.id, model.name, "registered", created=True))
        return _read(model)

    def register_result(
        self, name: str, path: Path, job_id: str, lineage: dict[str, Any], description: str
    ) -> ModelRead:
        """A model the platform wrote itself (a surgery run's result, in its own job directory): registered under
        `name`, or `name-<job id>` when a model already has that name."""
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
        if self.store.name_taken(name):
            name = f"{name}-{job_id[:8]}"
        model = RegisteredModel(
            id=uuid.uuid4().hex,
            name=name,
            path=str(path),
            architecture=str(config.get("model_type", "")),
            num_parameters=count_parameters(path),
            description=description,
            job_id=job_id,
            lineage=lineage,
        )
        model = self.store.add(model)
        report(Change("model", model.id, model.name, "registered", created=True))
        return _read(model)

    def has_result_of(self, job_id: str) -> bool:
        return self.store.result_of(job_id) is not None

    def list_all(self) -> list[ModelRead]:
        return [_read(model) for model in self.store.list_all()]

    def get(self, name_or_id: str) -> ModelRead:
        return _read(self.store.find(name_or_id))


def _read(model: RegisteredModel) -> ModelRead:
    return ModelRead.model_validate(model, from_attributes=True)
