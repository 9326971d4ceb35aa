"""What the API shows of the engines: what each can run, and whether it can run each algorithm on this machine."""

from pydantic import BaseModel, Field

from training_platform.contract.params import Algorithm
from training_platform.engines.base import Engine


class EngineRead(BaseModel):
    name: str
    algorithms: list[Algorithm]
    devices: list[str]
    max_devices: int | None
    zero_stages: list[int]
    cpu_offload: bool
    runnable_here: list[Algorithm]  # what this machine has the packages for (verl, a rollout engine)

    @classmethod
    def of(cls, engine: Engine) -> "EngineRead":
        capabilities = engine.capabilities
        algorithms = sorted(capabilities.algorithms)
        return cls(
            name=engine.name,
            algorithms=algorithms,
            devices=sorted(capabilities.devices),
            max_devices=capabilities.max_devices,
            zero_stages=sorted(capabilities.zero_stages),
            cpu_offload=capabilities.cpu_offload,
            runnable_here=[algorithm for algorithm in algorithms if engine.runnable_here(algorithm)],
        )


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
