"""What every unsafe route needs and what its success leaves behind (steps 5 and 6 of the access checks,
api/security.py)."""

from dataclasses import dataclass

from training_platform.auth.schemas import ResourceKind

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True)
class Access:
    """What an unsafe route needs, and what a success leaves behind."""

    viewers: bool = False  # computes an answer and changes nothing: any user may call it
    action: str | None = None  # the audit log's action on success
    kind: ResourceKind | None = None  # what the route creates or deletes
    creates: bool = False  # the caller becomes the owner of the `kind` its services report as created
    deletes: bool = False  # the resource of the path is gone: so is its owner


# Every route that is not GET: tests/auth/test_api_access.py fails when a route is missing here, so a new one gets
# its decision on purpose. Ownership follows from the path (OWNED_PARAMETERS, api/ownership.py) unless `viewers`
# is set.
UNSAFE_ROUTES: dict[tuple[str, str], Access] = {
    ("POST", "/jobs"): Access(action="created", kind=ResourceKind.JOB, creates=True),
    ("POST", "/jobs/spec"): Access(action="created", kind=ResourceKind.JOB, creates=True),
    ("POST", "/jobs/preview"): Access(viewers=True),  # checks a job as creating it would, creates nothing
    ("POST", "/rewards/preview"): Access(viewers=True),  # scores a few rows in the worker, keeps nothing
    ("POST", "/jobs/spec/preview"): Access(viewers=True),
    ("DELETE", "/jobs/{job}"): Access(action="deleted", kind=ResourceKind.JOB, deletes=True),
    # Started, resumed or queued: as the scheduler reports it.
    ("POST", "/jobs/{job}/start"): Access(),
    ("POST", "/jobs/{job}/pause"): Access(action="paused"),
    ("POST", "/jobs/{job}/resume"): Access(),
    ("POST", "/jobs/{job}/stop"): Access(action="stopped"),
    ("POST", "/jobs/{job}/checkpoints/{checkpoint}/export"): Access(action="exported"),
    ("POST", "/jobs/{job}/diagnose"): Access(),
    ("POST", "/monitoring/{job}/metrics/sync"): Access(),
    # An unknown job name makes an external job, which the caller then owns.
    ("POST", "/monitoring/{job}/metrics/import"): Access(action="imported", kind=ResourceKind.JOB, creates=True),
    ("POST", "/datasets"): Access(action="registered", kind=ResourceKind.DATASET, creates=True),
    ("POST", "/datasets/upload"): Access(action="registered", kind=ResourceKind.DATASET, creates=True),
    # Each dataset it registered is the caller's; a dry run registers none.
    ("POST", "/datasets/import/llamafactory"): Access(action="registered", kind=ResourceKind.DATASET, creates=True),
    ("POST", "/datasets/detect"): Access(viewers=True),  # reads the rows it is sent, changes nothing
    ("PATCH", "/datasets/{dataset}"): Access(action="changed"),
    ("DELETE", "/datasets/{dataset}"): Access(action="deleted", kind=ResourceKind.DATASET, deletes=True),
    ("POST", "/datasets/{dataset}/audit"): Access(),
    ("POST", "/datasets/{dataset}/index"): Access(),
    ("POST", "/datasets/{dataset}/search"): Access(viewers=True),
    ("POST", "/datasets/{dataset}/dedup"): Access(action="deduplicated"),
    ("POST", "/datasets/{dataset}/convert"): Access(action="converted", kind=ResourceKind.DATASET, creates=True),
    ("POST", "/models"): Access(action="registered", kind=ResourceKind.MODEL, creates=True),
    # A surgery run is a job of its own kind: its caller owns it; its result is registered when it completes.
    ("POST", "/surgery/merge"): Access(action="created", kind=ResourceKind.JOB, creates=True),
    ("POST", "/surgery/average"): Access(action="created", kind=ResourceKind.JOB, creates=True),
    ("POST", "/surgery/lora-fold"): Access(action="created", kind=ResourceKind.JOB, creates=True),
    ("POST", "/surgery/select"): Access(viewers=True),
    # An evaluation is a job of its own kind, like a surgery run; a comparison reads runs and changes nothing.
    ("POST", "/evaluations"): Access(action="created", kind=ResourceKind.JOB, creates=True),
    ("POST", "/evaluations/sweep"): Access(action="created", kind=ResourceKind.JOB, creates=True),
    ("POST", "/evaluations/compare"): Access(viewers=True),
    # A chat generates an answer and keeps nothing: no job, no file, no record.
    ("POST", "/playground/chat"): Access(viewers=True),
    ("POST", "/compute/estimate"): Access(viewers=True),
    ("POST", "/compute/recommend"): Access(viewers=True),
    ("POST", "/engines/verl/validate"): Access(viewers=True),
    ("POST", "/demo"): Access(action="demo installed"),
    # An admin's (the router requires it): a target makes the server send requests wherever it says.
    ("POST", "/alerts/targets"): Access(action="alert target added"),
    ("PATCH", "/alerts/targets/{target}"): Access(action="alert target changed"),
    ("DELETE", "/alerts/targets/{target}"): Access(action="alert target deleted"),
    ("POST", "/alerts/targets/{target}/test"): Access(action="alert target tested"),
    # Members and admins store and delete secrets (no owner: a secret is the platform's); the service reports each
    # change by name for the audit log, never with its value.
    ("POST", "/secrets"): Access(),
    ("DELETE", "/secrets/{name}"): Access(),
    # An admin's (the router requires it): a host's credentials run anything there. Syncing a dataset is what a run
    # there does first: anyone who may run jobs.
    ("POST", "/pipelines"): Access(action="created", kind=ResourceKind.PIPELINE, creates=True),
    ("POST", "/pipelines/validate"): Access(viewers=True),  # checks a definition, changes nothing
    ("PUT", "/pipelines/{pipeline}"): Access(action="edited"),
    ("DELETE", "/pipelines/{pipeline}"): Access(action="deleted", kind=ResourceKind.PIPELINE, deletes=True),
    ("POST", "/pipelines/{pipeline}/start"): Access(action="started"),
    ("POST", "/pipelines/{pipeline}/resume"): Access(action="resumed"),
    ("POST", "/pipelines/{pipeline}/cancel"): Access(action="cancelled"),
    # A worker's (admin-only): each call is a step of one stage task, audited as the stage's own events.
    ("POST", "/pipelines/{pipeline}/stages/{stage}/claim"): Access(),
    ("POST", "/pipelines/{pipeline}/stages/{stage}/heartbeat"): Access(),
    ("POST", "/pipelines/{pipeline}/stages/{stage}/settle"): Access(),
    ("POST", "/hosts"): Access(action="host added"),
    ("DELETE", "/hosts/{name}"): Access(action="host removed"),
    ("POST", "/hosts/{name}/test"): Access(action="host tested"),
    ("POST", "/hosts/{name}/trust"): Access(action="host key trusted"),
    ("POST", "/hosts/{name}/datasets/sync"): Access(),
    # Everyone manages their own credentials; the auth router checks the rest (users are an admin's) and audits.
    ("POST", "/auth/login"): Access(viewers=True),
    ("POST", "/auth/logout"): Access(viewers=True),
    ("POST", "/auth/tokens"): Access(viewers=True),
    ("DELETE", "/auth/tokens/{token}"): Access(viewers=True),
    ("POST", "/auth/users"): Access(),
    ("PATCH", "/auth/users/{name}"): Access(),
}
# Unlisted routes (there should be none) are member routes owned by their path.
MEMBER_ROUTE = Access()
