from fastapi import APIRouter, status

from training_platform.api.deps import PlatformDep
from training_platform.models.schemas import ModelRead, ModelRegister

router = APIRouter(prefix="/models", tags=["models"])


@router.get("")
def list_models(platform: PlatformDep) -> list[ModelRead]:
    return platform.models.list_all()


@router.post("", status_code=status.HTTP_201_CREATED)
def register_model(body: ModelRegister, platform: PlatformDep) -> ModelRead:
    return platform.models.register(body)


@router.get("/{model}")
def get_model(model: str, platform: PlatformDep) -> ModelRead:
    return platform.models.get(model)
