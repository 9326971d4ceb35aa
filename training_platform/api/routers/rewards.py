"""What a GRPO/GSPO job's rule rewards make of right answers before it is launched, and of the model's own
completions while it trains."""

from typing import Annotated

from fastapi import APIRouter, Query

from training_platform.api.deps import LanguageDep, PlatformDep
from training_platform.jobs.reward_preview import RewardPreviewRead, RewardPreviewRequest, preview_rewards
from training_platform.jobs.samples import MAX_PAGE, CompletionSamplesPage, job_samples

router = APIRouter(tags=["jobs"])


@router.post("/rewards/preview")
def preview_job_rewards(body: RewardPreviewRequest, platform: PlatformDep, language: LanguageDep) -> RewardPreviewRead:
    """The rewards scored on the dataset's first rows, with each row's reference answer as the completion and with
    that answer in a plain sentence ('The answer is 7.'); a warning when no row scores above 0, since the model's
    own completions, however right, would not either. Runs in the decoding worker, under its limits."""
    return preview_rewards(platform.jobs, body, language)


@router.get("/jobs/{job}/samples")
def list_job_samples(
    job: str,
    platform: PlatformDep,
    step: Annotated[int | None, Query(ge=0, le=2**62)] = None,
    offset: Annotated[int, Query(ge=0, le=2**62)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 20,
) -> CompletionSamplesPage:
    """A GRPO/GSPO job's sample completions with their rewards, one sampled step at a time (the latest unless
    `step` says which); `steps` lists the steps that have them."""
    return job_samples(platform.jobs, job, step, offset, limit)
