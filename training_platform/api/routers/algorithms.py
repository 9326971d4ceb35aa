"""/api/v1/algorithms: each algorithm's parameter schema (defaults, limits, descriptions) and the engines that run it,
so a client such as the web UI's job form shows exactly what POST /jobs will apply and accept."""

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from training_platform.contract.params import PARAMS_BY_ALGORITHM, Algorithm
from training_platform.engines.registry import engines

router = APIRouter(prefix="/algorithms", tags=["jobs"])


class AlgorithmOut(BaseModel):
    name: Algorithm
    engines: list[str]
    params_schema: dict[str, Any]


@router.get("")
def list_algorithms() -> list[AlgorithmOut]:
    known = engines()
    return [
        AlgorithmOut(
            name=algorithm,
            engines=[engine.name for engine in known if algorithm in engine.algorithms],
            params_schema=params.model_json_schema(),
        )
        for algorithm, params in PARAMS_BY_ALGORITHM.items()
    ]
