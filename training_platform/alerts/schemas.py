"""What the alerts API accepts and returns, and the event the platform announces (`AlertEvent`)."""

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from training_platform.db.types import utcnow
from training_platform.errors import NAME_PATTERN

Severity = Literal["info", "warning", "critical"]
AlertFormat = Literal["generic", "slack", "feishu"]
DeliveryStatus = Literal["pending", "delivered", "failed"]
SEVERITIES: tuple[Severity, ...] = ("info", "warning", "critical")

TargetName = Annotated[str, Field(min_length=1, max_length=200, pattern=NAME_PATTERN)]
Kind = Annotated[str, Field(min_length=1, max_length=64)]
Text = Annotated[str, Field(max_length=2000)]


class AlertEvent(BaseModel):
    """Something a person should hear about. `event_key` names the event, not the announcement: announcing the same
    key again sends nothing more, and receivers get it as the `Idempotency-Key` header to drop repeats."""

    model_config = ConfigDict(extra="forbid")

    # Printable ASCII without spaces: it travels as an HTTP header.
    event_key: str = Field(
        min_length=1, max_length=200, pattern=r"^[!-~]+$", description='Unique per event, e.g. "finding:12:critical".'
    )
    job_id: str | None = Field(default=None, max_length=32, description="None: about the platform, no one job.")
    job_name: str | None = Field(default=None, max_length=200)
    kind: Kind = Field(description="What happened: a finding's kind (non_finite, kl_explosion, …) or `test`.")
    severity: Severity
    step: int | None = None
    title: str = Field(min_length=1, max_length=500)
    message: str = Field(default="", max_length=10_000)
    suggestions: list[Text] = Field(default_factory=list, max_length=20)
    url_path: str | None = Field(
        default=None, max_length=2000, pattern=r"^/", description="The UI page to open, e.g. /jobs/<name>."
    )
    occurred_at: datetime = Field(default_factory=utcnow)


class AlertTargetCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: TargetName
    url: str = Field(
        min_length=1,
        max_length=2048,
        description="The webhook: http(s)://… Slack's and Feishu's are secrets; the API shows them redacted.",
    )
    format: AlertFormat = "generic"
    job: str | None = Field(
        default=None, max_length=200, description="A job's name or id: only its alerts. None: every job's."
    )
    severities: list[Severity] = Field(
        default_factory=lambda: ["warning", "critical"], min_length=1, description="The severities sent."
    )
    kinds: list[Kind] = Field(default_factory=list, max_length=100, description="The kinds sent; empty: every kind.")
    enabled: bool = True


class AlertTargetUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    severities: list[Severity] | None = Field(default=None, min_length=1)
    kinds: list[Kind] | None = Field(default=None, max_length=100)
    enabled: bool | None = None


class AlertTargetRead(BaseModel):
    id: str
    name: str
    job_id: str | None
    format: AlertFormat
    url: str = Field(description="scheme://host/… : the rest of a webhook URL is its secret.")
    severities: list[Severity]
    kinds: list[str]
    enabled: bool
    created_at: datetime


class AttemptRead(BaseModel):
    id: int
    outbox_id: int
    attempted_at: datetime
    status_code: int | None
    error: str | None
    duration_ms: float
    ok: bool


class DeliveryRead(BaseModel):
    """One event to one target: where it stands, and every request made for it."""

    id: int
    target_id: str
    event_key: str
    kind: str
    severity: str
    title: str
    status: DeliveryStatus
    next_attempt_at: datetime | None = Field(description="When it is tried again; None once it is settled.")
    last_error: str | None
    created_at: datetime
    delivered_at: datetime | None
    attempts: list[AttemptRead]
