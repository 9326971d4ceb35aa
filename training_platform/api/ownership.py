"""Ownership (step 5 of the access checks, api/security.py): the jobs, datasets and models a request's path names,
resolved to their owners; a member changes only their own."""

from dataclasses import dataclass
from typing import Any

from training_platform.api.refusal import Refusal
from training_platform.auth.errors import ForbiddenError
from training_platform.auth.schemas import Principal, ResourceKind
from training_platform.auth.service import AuthService
from training_platform.errors import NotFoundError
from training_platform.platform import Platform

# Path parameters that name an owned resource, in every router.
OWNED_PARAMETERS = {
    "job": ResourceKind.JOB,
    "dataset": ResourceKind.DATASET,
    "model": ResourceKind.MODEL,
    "pipeline": ResourceKind.PIPELINE,
}
# Parents followed to find who owns a derived dataset (a dedup's or a conversion's version of another).
MAX_LINEAGE_STEPS = 64


@dataclass
class Target:
    """The resource a request's path names, resolved to its id (jobs are addressed by id or name)."""

    kind: ResourceKind
    id: str
    name: str


def check_ownership(
    auth: AuthService, platform: Platform, principal: Principal, path_params: dict[str, Any]
) -> list[Target]:
    targets = []
    for parameter, kind in OWNED_PARAMETERS.items():
        if parameter not in path_params:
            continue
        try:
            target, owner = _resolve(auth, platform, kind, str(path_params[parameter]))
        except NotFoundError:
            continue  # the route answers 404 itself (or, importing metrics, makes the job)
        try:
            auth.check_may_change(principal, kind, owner, target.name)
        except ForbiddenError as error:
            raise Refusal(403, str(error)) from None
        targets.append(target)
    return targets


def _resolve(auth: AuthService, platform: Platform, kind: ResourceKind, name_or_id: str) -> tuple[Target, str | None]:
    """The resource and its owner. A derived dataset without an owner of its own belongs to its parent's."""
    if kind == ResourceKind.JOB:
        job = platform.jobs.find(name_or_id)
        return Target(kind, job.id, job.name), auth.owner_of(kind, job.id)
    if kind == ResourceKind.PIPELINE:
        pipeline_id, name, _ = platform.pipelines.owner_of(name_or_id)
        return Target(kind, pipeline_id, name), auth.owner_of(kind, pipeline_id)
    if kind == ResourceKind.MODEL:
        model = platform.models.get(name_or_id)
        return Target(kind, model.id, model.name), auth.owner_of(kind, model.id)
    dataset = platform.datasets.get(name_or_id)
    target, owner, step = Target(kind, dataset.id, dataset.name), auth.owner_of(kind, dataset.id), 0
    while owner is None and dataset.parent_id and step < MAX_LINEAGE_STEPS:
        try:
            dataset = platform.datasets.get(dataset.parent_id)
        except NotFoundError:
            break
        owner, step = auth.owner_of(kind, dataset.id), step + 1
    return target, owner
