"""What the models API accepts and returns."""

from datetime import datetime

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
    created_at: datetime
