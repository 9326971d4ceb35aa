import shlex

from fastapi import APIRouter

from training_platform.api.deps import LanguageDep
from training_platform.engines.registry import engines, get_engine
from training_platform.engines.schemas import EngineRead, VerlCommand, VerlProblem, VerlValidation
from training_platform.errors import FieldError, InvalidInputError

router = APIRouter(prefix="/engines", tags=["engines"])


@router.get("")
def list_engines(language: LanguageDep) -> list[EngineRead]:
    """What each engine runs (algorithms, devices, memory strategies) and what this machine can run with it: for
    each algorithm it cannot run here, why (in the request's language)."""
    return [EngineRead.of(engine, language) for engine in engines()]


@router.post(
    "/verl/validate",
    responses={
        422: {"description": "Not a command, or an override Hydra/OmegaConf would execute or resolve (named)."},
        503: {"description": "Every verl validation process is busy (settings.validation_concurrency)."},
    },
)
def validate_verl_command(body: VerlCommand) -> VerlValidation:
    """Check a hand-written verl command against verl's own configs and checks, offline, before running it.
    Overrides that would run code or read the server's environment (`_target_`, `${...}`, additions of keys
    the platform does not add itself) are refused, each named."""
    try:
        argv = shlex.split(body.command) if isinstance(body.command, str) else body.command
    except ValueError as error:  # unbalanced quotes
        raise InvalidInputError([FieldError("command", f"cannot be split like a shell would: {error}")]) from None
    problems = [VerlProblem(**problem) for problem in get_engine("verl").validate(argv)]
    return VerlValidation(valid=not problems, problems=problems)
