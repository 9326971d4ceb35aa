"""What the models API accepts and returns."""

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class ModelRegister(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    path: str = Field(min_length=1, max_length=4096, description="A model directory under the data roots.")
    description: str = Field(default="", max_length=10_000)


class ModelRead(BaseModel):
    id: str
    name: str
    path: str
    architecture: str
    num_parameters: int | None
    description: str
    job_id: str | None = Field(description="The surgery run that wrote it; None for a model registered by hand.")
    lineage: dict[str, Any] | None = Field(
        description="How it was made (its surgery.json): the operation, each input with its job, step and sha256, "
        "the parameters."
    )
    created_at: datetime
