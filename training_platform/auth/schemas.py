"""What the auth API accepts and returns, and who is asking (the Principal)."""

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field


class Role(StrEnum):
    ADMIN = "admin"  # everything, users and the audit log included
    MEMBER = "member"  # reads everything, changes what they created
    VIEWER = "viewer"  # reads everything, changes nothing


class ResourceKind(StrEnum):
    """What has an owner (evaluation and surgery runs are jobs)."""

    JOB = "job"
    DATASET = "dataset"
    MODEL = "model"
    PIPELINE = "pipeline"


class TokenKind(StrEnum):
    API = "api"  # made by its owner for scripts and the CLI, until revoked or its expiry
    SESSION = "session"  # a web login, in an HttpOnly cookie, for PLATFORM_SESSION_HOURS


class CredentialSource(StrEnum):
    SESSION = "session"
    TOKEN = "token"
    ADMIN_TOKEN = "admin-token"  # PLATFORM_ADMIN_TOKEN


# The built-in user that PLATFORM_ADMIN_TOKEN acts as; no user of the database may take its name.
ADMIN_TOKEN_USER = "admin-token"
# The actor of what the server does on its own (the first admin at the first start).
SYSTEM_ACTOR = "system"
RESERVED_USER_NAMES = frozenset({ADMIN_TOKEN_USER, SYSTEM_ACTOR})

UserName = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9._@-]*$")]
Password = Annotated[str, Field(min_length=8, max_length=1024, description="At least 8 characters.")]


@dataclass(frozen=True)
class Principal:
    """Who a request comes from: a user (through a session or an API token) or the admin token."""

    name: str
    role: Role
    source: CredentialSource
    token_id: str | None = None

    @property
    def is_admin(self) -> bool:
        return self.role == Role.ADMIN

    @property
    def can_write(self) -> bool:
        return self.role in (Role.ADMIN, Role.MEMBER)


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LoginRequest(StrictModel):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)


class SessionUser(BaseModel):
    name: str
    role: Role


class Me(SessionUser):
    via: CredentialSource


class LoginResult(BaseModel):
    user: SessionUser
    expires_at: datetime
    token: str | None = Field(
        default=None, description="The session token itself, only when asked with ?token=true (for scripts)."
    )


class UserCreate(StrictModel):
    name: UserName
    password: Password
    role: Role = Role.MEMBER


class UserUpdate(StrictModel):
    role: Role | None = None
    password: Password | None = Field(default=None, description="A new password; ends the user's web sessions.")
    disabled: bool | None = Field(default=None, description="A disabled user's sessions and tokens are refused.")


class UserRead(BaseModel):
    name: str
    role: Role
    disabled: bool
    created_at: datetime
    updated_at: datetime


class TokenCreate(StrictModel):
    name: str = Field(min_length=1, max_length=100, description="What the token is for, e.g. 'ci' or 'laptop'.")
    expires_days: float | None = Field(
        default=None, gt=0, le=3650, description="Days until it expires; never if empty."
    )
    user: UserName | None = Field(default=None, description="Whose token (admins only); the caller's if empty.")


class TokenRead(BaseModel):
    id: str
    name: str
    kind: TokenKind
    user: str
    prefix: str = Field(description="The token's first characters, to tell tokens apart.")
    created_at: datetime
    last_used_at: datetime | None
    expires_at: datetime | None


class TokenCreated(TokenRead):
    token: str = Field(description="The token itself: shown this once, only its hash is kept.")


class AuditEntryRead(BaseModel):
    id: int
    created_at: datetime
    actor: str
    action: str
    resource_kind: str | None
    resource_id: str | None
    resource_name: str | None
    client: str | None
    detail: str


class AuditQuery(BaseModel):
    actor: str | None = None
    resource_kind: str | None = None
    resource: str | None = Field(default=None, description="A resource's id or name.")
    action: str | None = None
    limit: int = Field(default=100, ge=1, le=1000)
    offset: int = Field(default=0, ge=0)
