import shlex

from fastapi import APIRouter
from pydantic import BaseModel, Field

from training_platform.engines.verl.engine import validate_command
from training_platform.engines.verl.environment import verl_environment
from training_platform.errors import FieldError, InvalidInputError

router = APIRouter(prefix="/engines", tags=["engines"])


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


@router.post("/verl/validate")
def validate_verl_command(body: VerlCommand) -> VerlValidation:
    """Check a hand-written verl command against verl's own configs and checks, offline, before running it."""
    environment = verl_environment()
    if not environment.has_verl:
        raise InvalidInputError([FieldError("command", environment.missing_verl_message())])
    argv = shlex.split(body.command) if isinstance(body.command, str) else body.command
    problems = [VerlProblem(**problem) for problem in validate_command(argv)]
    return VerlValidation(valid=not problems, problems=problems)
