"""Registered datasets: a name for a validated file on disk, with its kind and size."""

import uuid
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlmodel import col, select

from training_platform.datasets.formats import validate_file
from training_platform.datasets.io import DatasetFileError, file_format
from training_platform.db import Database
from training_platform.db.lookup import get_by_name_or_id, name_taken
from training_platform.db.tables import RegisteredDataset
from training_platform.errors import ConflictError, FieldError, InvalidInputError


class DatasetRegister(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    path: str = Field(min_length=1)
    kind: Literal["sft", "dpo", "grpo", "gspo", "ppo", "eval"]
    description: str = ""


class DatasetRegistry:
    def __init__(self, db: Database, error_limit: int):
        self.db = db
        self.error_limit = error_limit

    def register(self, request: DatasetRegister) -> RegisteredDataset:
        path = Path(request.path).expanduser().resolve()
        try:
            report = validate_file(path, request.kind, keep=self.error_limit)
        except DatasetFileError as error:
            raise InvalidInputError([FieldError("path", str(error))]) from None
        if not report.ok:
            raise InvalidInputError([FieldError("path", p.message, row=p.row) for p in report.problems])
        with self.db.session() as session:
            if name_taken(session, RegisteredDataset, request.name):
                raise ConflictError(f"a dataset named '{request.name}' is already registered")
            dataset = RegisteredDataset(
                id=uuid.uuid4().hex,
                name=request.name,
                path=str(path),
                kind=request.kind,
                file_format=file_format(path),
                num_rows=report.num_rows,
                size_bytes=path.stat().st_size,
                description=request.description,
            )
            session.add(dataset)
            session.commit()
            return dataset

    def list_all(self) -> list[RegisteredDataset]:
        with self.db.session() as session:
            return list(session.exec(select(RegisteredDataset).order_by(col(RegisteredDataset.name))))

    def get(self, name_or_id: str) -> RegisteredDataset:
        return get_by_name_or_id(self.db, RegisteredDataset, name_or_id, "dataset")
