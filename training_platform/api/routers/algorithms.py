"""/api/v1/algorithms: each algorithm's parameter schema (defaults, limits, descriptions), the engines that run it and
the charts of its metrics, so a client such as the web UI's job form shows exactly what POST /jobs will apply and
accept."""

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from training_platform.contract.params import PARAMS_BY_ALGORITHM, RL_ALGORITHMS, Algorithm
from training_platform.datafiles.kinds import kinds_read_by
from training_platform.engines.charts import default_charts
from training_platform.engines.registry import engines
from training_platform.engines.schemas import ChartRead

router = APIRouter(prefix="/algorithms", tags=["jobs"])


class AlgorithmOut(BaseModel):
    name: Algorithm
    engines: list[str]
    rl: bool = Field(description="Samples responses to score (rollouts).")
    dataset_kinds: list[str] = Field(description="The dataset kinds whose rows it trains on, its own first.")
    params_schema: dict[str, Any]
    charts: list[ChartRead] = Field(description="The charts a job's page shows by default, once it has their metrics.")


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
            charts=[ChartRead.of(chart) for chart in default_charts(algorithm, [engine.charts for engine in known])],
        )
        for algorithm, params in PARAMS_BY_ALGORITHM.items()
    ]
