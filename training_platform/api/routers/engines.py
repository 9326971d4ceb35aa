import shlex

from fastapi import APIRouter

from training_platform.engines.registry import engines, get_engine
from training_platform.engines.schemas import EngineRead, VerlCommand, VerlProblem, VerlValidation

router = APIRouter(prefix="/engines", tags=["engines"])


@router.get("")
def list_engines() -> list[EngineRead]:
    """What each engine runs (algorithms, devices, memory strategies) and what this machine can run with it."""
    return [EngineRead.of(engine) for engine in engines()]


@router.post("/verl/validate")
def validate_verl_command(body: VerlCommand) -> VerlValidation:
    """Check a hand-written verl command against verl's own configs and checks, offline, before running it."""
    argv = shlex.split(body.command) if isinstance(body.command, str) else body.command
    problems = [VerlProblem(**problem) for problem in get_engine("verl").validate(argv)]
    return VerlValidation(valid=not problems, problems=problems)
