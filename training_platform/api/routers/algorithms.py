"""/api/v1/algorithms: each algorithm's parameter schema (defaults, limits, descriptions) and the engines that run it,
so a client such as the web UI's job form shows exactly what POST /jobs will apply and accept."""

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from training_platform.contract.params import PARAMS_BY_ALGORITHM, RL_ALGORITHMS, Algorithm
from training_platform.datafiles.kinds import kinds_read_by
from training_platform.engines.registry import engines

router = APIRouter(prefix="/algorithms", tags=["jobs"])


class AlgorithmOut(BaseModel):
    name: Algorithm
    engines: list[str]
    rl: bool = Field(description="Samples responses to score (rollouts).")
    dataset_kinds: list[str] = Field(description="The dataset kinds whose rows it trains on, its own first.")
    params_schema: dict[str, Any]


@router.get("")
def list_algorithms() -> list[AlgorithmOut]:
    known = engines()
    return [
        AlgorithmOut(
            name=algorithm,
            engines=[engine.name for engine in known if algorithm in engine.algorithms],
            rl=algorithm in RL_ALGORITHMS,
            dataset_kinds=list(kinds_read_by(algorithm)),
            params_schema=params.model_json_schema(),
        )
        for algorithm, params in PARAMS_BY_ALGORITHM.items()
    ]
