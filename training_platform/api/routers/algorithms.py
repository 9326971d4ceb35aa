"""/api/v1/algorithms: each algorithm's parameter schema (defaults, limits, descriptions) and the engines that run it,
so a client such as the web UI's job form shows exactly what POST /jobs will apply and accept."""

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from training_platform.engines import available_engines, get_engine
from training_platform.jobs.params import PARAMS_BY_ALGORITHM, Algorithm

router = APIRouter(prefix="/algorithms", tags=["jobs"])


class AlgorithmOut(BaseModel):
    name: Algorithm
    engines: list[str]
    params_schema: dict[str, Any]


@router.get("")
def list_algorithms() -> list[AlgorithmOut]:
    engines = [get_engine(name) for name in available_engines()]
    return [
        AlgorithmOut(
            name=algorithm,
            engines=[engine.name for engine in engines if algorithm in engine.algorithms],
            params_schema=params.model_json_schema(),
        )
        for algorithm, params in PARAMS_BY_ALGORITHM.items()
    ]
