from fastapi import APIRouter, status

from training_platform.api.deps import PlatformDep
from training_platform.models.schemas import ModelRead, ModelRegister
from training_platform.surgery.schemas import ModelChoice

router = APIRouter(prefix="/models", tags=["models"])


@router.get("")
def list_models(platform: PlatformDep) -> list[ModelRead]:
    return platform.models.list_all()


@router.post("", status_code=status.HTTP_201_CREATED)
def register_model(body: ModelRegister, platform: PlatformDep) -> ModelRead:
    return platform.models.register(body)


@router.get("/choices")
def model_choices(platform: PlatformDep) -> list[ModelChoice]:
    """Every model that can be chosen where a model is asked for: registered models, each job's final model and
    complete checkpoints (with the metrics recorded at their step), each with the reference that names it."""
    return platform.surgery.choices()


@router.get("/{model}")
def get_model(model: str, platform: PlatformDep) -> ModelRead:
    return platform.models.get(model)
