"""What the API shows of the engines: what each can run, and whether it can run each algorithm on this machine."""

from pydantic import BaseModel, Field

from training_platform.common.text import ENGLISH, Language
from training_platform.contract.params import Algorithm
from training_platform.engines.base import Engine
from training_platform.engines.charts import Chart


class UnavailableHere(BaseModel):
    algorithm: Algorithm
    code: str = Field(description="The reason's message code (common/catalogue.py).")
    message: str = Field(description="The reason, in the language the request asked for (Accept-Language).")


class EngineRead(BaseModel):
    name: str
    algorithms: list[Algorithm]
    devices: list[str]
    max_devices: int | None
    zero_stages: list[int]
    cpu_offload: bool
    runnable_here: list[Algorithm]  # what this machine has the packages for (verl, a rollout engine)
    unavailable_here: list[UnavailableHere] = Field(
        description="Why each of its algorithms that this machine cannot run cannot run here."
    )

    @classmethod
    def of(cls, engine: Engine, language: Language = ENGLISH) -> "EngineRead":
        capabilities = engine.capabilities
        algorithms = sorted(capabilities.algorithms)
        missing = {algorithm: engine.unavailable_here(algorithm) for algorithm in algorithms}
        return cls(
            name=engine.name,
            algorithms=algorithms,
            devices=sorted(capabilities.devices),
            max_devices=capabilities.max_devices,
            zero_stages=sorted(capabilities.zero_stages),
            cpu_offload=capabilities.cpu_offload,
            runnable_here=[algorithm for algorithm, reason in missing.items() if reason is None],
            unavailable_here=[
                UnavailableHere(algorithm=algorithm, code=reason.code, message=reason.render(language))
                for algorithm, reason in missing.items()
                if reason is not None
            ],
        )


class ChartBand(BaseModel):
    key: str
    spread: str


class ChartRead(BaseModel):
    id: str = Field(description="What it shows (loss, margins, completion_length, ...).")
    keys: list[str] = Field(
        description="Metric keys, one line each, on one axis; `*` stands for one part of a `/`-separated key "
        "(rewards/*/mean: one line per reward function)."
    )
    band: ChartBand | None = Field(default=None, description="`key` ± `spread` drawn as dashed bounds.")

    @classmethod
    def of(cls, chart: Chart) -> "ChartRead":
        band = ChartBand(key=chart.band[0], spread=chart.band[1]) if chart.band else None
        return cls(id=chart.id, keys=list(chart.keys), band=band)


class VerlCommand(BaseModel):
    command: list[str] | str = Field(
        description="A whole verl command line, as a list of arguments or one string (split like a shell would)."
    )


class VerlProblem(BaseModel):
    override: str
    message: str


class VerlValidation(BaseModel):
    valid: bool
    problems: list[VerlProblem]
