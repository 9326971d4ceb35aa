from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool

from training_platform.api.deps import PlatformDep
from training_platform.demo.install import DemoSummary, install_demo

router = APIRouter(prefix="/demo", tags=["system"])


@router.post("")
async def create_demo(platform: PlatformDep) -> DemoSummary:
    """Create and register the offline demo model, reward model and datasets, and a pending SFT job (what is
    already there is kept)."""
    return await run_in_threadpool(install_demo, platform)
