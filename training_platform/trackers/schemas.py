"""What a job says about the trackers its metrics are exported to (docs/trackers.md), and what an export reads as.

A job's `trackers` is a list of these; the platform's default (PLATFORM_TRACKERS, the same JSON) stands in for a
job that names none. Every string is bounded, and the one address (MLflow's tracking server) is an http(s) URL
whose host the server checks again before each request (common/destinations.py).
"""

from datetime import datetime
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, field_validator

MAX_TRACKERS = 8
# An MLflow experiment, a W&B project or entity: names, not markup.
TrackerName = Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9][A-Za-z0-9 ._/-]*$")]
WandbName = Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")]
SecretName = Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")]


class TensorBoardExport(BaseModel):
    """TensorBoard event files under the job's directory (`<output_dir>/tensorboard/`)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["tensorboard"] = "tensorboard"


class MlflowExport(BaseModel):
    """A run on an MLflow tracking server, through its REST API."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["mlflow"] = "mlflow"
    tracking_uri: str = Field(max_length=2000, description="The tracking server's http(s) URL.")
    experiment: TrackerName = Field(default="training-platform", description="Made when the server has none of it.")
    token_secret: SecretName | None = Field(
        default=None, description="A secret (POST /secrets) holding a bearer token the server asks for."
    )

    @field_validator("tracking_uri")
    @classmethod
    def _http_url(cls, value: str) -> str:
        if any(char.isspace() or ord(char) < 32 or ord(char) == 127 for char in value):
            raise ValueError("must not contain spaces or control characters")
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018 (parsing the port is what raises on a bad one)
        except ValueError as error:
            raise ValueError(f"is not a valid URL ({error})") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an http or https URL naming a host (http://host:5000)")
        if parts.username is not None or parts.password is not None:
            raise ValueError("must not carry credentials: name a secret in token_secret")
        return value.rstrip("/")


class WandbExport(BaseModel):
    """A W&B run: offline (a run directory under the job's, for `wandb sync`) unless `mode` is online, which needs
    the API key in the secret `api_key_secret`."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["wandb"] = "wandb"
    project: WandbName = "training-platform"
    entity: WandbName | None = None
    mode: Literal["offline", "online"] = "offline"
    api_key_secret: SecretName = Field(default="wandb_api_key", description="The secret holding the W&B API key.")


TrackerSpec = Annotated[TensorBoardExport | MlflowExport | WandbExport, Field(discriminator="kind")]
ONCE_PER_JOB = ("tensorboard", "wandb")  # they write into the job's own folder: a second would write the same run


def _once_each(specs: list) -> list:
    for kind in ONCE_PER_JOB:
        if sum(spec.kind == kind for spec in specs) > 1:
            raise ValueError(f"{kind} may be listed once")
    return specs


TrackerList = Annotated[list[TrackerSpec], Field(max_length=MAX_TRACKERS), AfterValidator(_once_each)]
TRACKER_LIST = TypeAdapter(TrackerList)


class TrackerExportRead(BaseModel):
    """Where one of a job's exports stands. Made once the job has its first steps; none before."""

    position: int = Field(description="Its place in the job's trackers (or the platform's default).")
    kind: str
    status: Literal["exporting", "closed"] = Field(
        description="closed: every step of an ended job is in the tracker, and its run is ended there."
    )
    exported_step: int | None = Field(description="The last step the tracker took; none yet: nothing taken.")
    run_ref: str | None = Field(description="The tracker's run: an MLflow run id, a W&B run id.")
    failures: int = Field(description="Requests the tracker failed in a row, since it last took one.")
    next_attempt_at: datetime = Field(description="When the next request is due (later after each failure).")
    last_error: str | None = Field(description="Why the last request failed, until one succeeds.")
    updated_at: datetime
