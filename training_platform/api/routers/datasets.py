from fastapi import APIRouter, status

from training_platform.api.deps import PlatformDep
from training_platform.datasets.registry import DatasetRegister
from training_platform.db.tables import RegisteredDataset

router = APIRouter(prefix="/datasets", tags=["datasets"])


@router.get("")
def list_datasets(platform: PlatformDep) -> list[RegisteredDataset]:
    return platform.datasets.list_all()


@router.post("", status_code=status.HTTP_201_CREATED)
def register_dataset(body: DatasetRegister, platform: PlatformDep) -> RegisteredDataset:
    return platform.datasets.register(body)


@router.get("/{dataset}")
def get_dataset(dataset: str, platform: PlatformDep) -> RegisteredDataset:
    return platform.datasets.get(dataset)
