"""The auth service: credentials in, a Principal out; users, tokens, who owns what, and the audit log.

Tokens are random (`secrets`), recognisable by their `tplat_` prefix (so a leaked one is easy to search for), and
kept only as their SHA-256: they carry 256 random bits, so a fast hash is enough and a copy of the database lets
nobody in. Passwords are argon2 hashes (pwdlib).
"""

import hashlib
import hmac
import secrets
import threading
import uuid
from datetime import datetime, timedelta

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from training_platform.auth.errors import ForbiddenError, TooManyAttemptsError, UnauthenticatedError
from training_platform.auth.ratelimit import LoginAttempt, LoginRateLimit
from training_platform.auth.schemas import (
    ADMIN_TOKEN_USER,
    RESERVED_USER_NAMES,
    AuditEntryRead,
    AuditQuery,
    CredentialSource,
    LoginResult,
    Principal,
    ResourceKind,
    Role,
    SessionUser,
    TokenCreate,
    TokenCreated,
    TokenKind,
    TokenRead,
    UserCreate,
    UserRead,
    UserUpdate,
)
from training_platform.auth.store import AuthStore
from training_platform.db.tables import ApiToken, AuditEntry, User
from training_platform.db.types import utcnow
from training_platform.errors import ConflictError, FieldError, InvalidInputError, NotFoundError

TOKEN_PREFIX = "tplat_"
# Shown in token lists: the prefix and a few random characters, far too few to guess the rest from.
SHOWN_TOKEN_CHARACTERS = len(TOKEN_PREFIX) + 4
# Writing last_used_at on every request would make every read a write; a minute is precise enough.
LAST_USED_RESOLUTION = timedelta(minutes=1)
UNAUTHENTICATED = "invalid or expired credential: log in, or send a valid token as 'Authorization: Bearer <token>'"
# How long a login waits for one of the PLATFORM_LOGIN_VERIFICATIONS places before it is answered 429: a few
# people logging in together wait their turn, a burst of guesses does not pile up behind them.
VERIFICATION_WAIT_SECONDS = 10.0


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class AuthService:
    def __init__(
        self,
        store: AuthStore,
        admin_token: str | None,
        session_hours: float,
        login_attempts_per_minute: int,
        concurrent_verifications: int = 2,
    ):
        self.store = store
        self.admin_token = admin_token.encode() if admin_token else None
        self.session_length = timedelta(hours=session_hours)
        self.login_limit = LoginRateLimit(login_attempts_per_minute)
        self.passwords = PasswordHash((Argon2Hasher(),))
        # Each argon2 verification holds 64 MiB while it runs: a bounded number at once bounds the memory a burst
        # of logins costs (docs/security.md, "Login rate limit").
        self._verifications = threading.BoundedSemaphore(concurrent_verifications)
        # Verified against when the user name is unknown, so that a login takes as long either way.
        self._decoy_hash = self.passwords.hash(secrets.token_urlsafe(16))

    # ---- credentials ---------------------------------------------------------------------------------------------

    def authenticate(self, token: str, source: CredentialSource = CredentialSource.TOKEN) -> Principal:
        """The principal a bearer token or session cookie stands for; UnauthenticatedError for any other token."""
        if self.admin_token is not None and hmac.compare_digest(token.encode(), self.admin_token):
            return Principal(name=ADMIN_TOKEN_USER, role=Role.ADMIN, source=CredentialSource.ADMIN_TOKEN)
        found = self.store.find_token(token_digest(token))
        if found is None:
            raise UnauthenticatedError(UNAUTHENTICATED)
        row, user = found
        now = utcnow()
        if user.disabled or (row.expires_at is not None and row.expires_at <= now):
            raise UnauthenticatedError(UNAUTHENTICATED)
        if row.last_used_at is None or now - row.last_used_at >= LAST_USED_RESOLUTION:
            self.store.touch_token(row.id, now)
        # The cookie carries sessions only, so an API token pasted into a cookie is still named a token.
        kind = CredentialSource.SESSION if row.kind == TokenKind.SESSION else CredentialSource.TOKEN
        return Principal(name=user.name, role=Role(user.role), source=kind, token_id=row.id)

    def login(self, username: str, password: str, client: str) -> tuple[LoginResult, str]:
        """A new web session for a user whose password matches: its description and the session token."""
        with self.login_limit.attempt(client, username) as attempt:
            user = self.store.find_user(username)
            stored_hash = user.password_hash if user else self._decoy_hash
            valid, updated_hash = self._verify(password, stored_hash, attempt)
            if user is None or not valid or user.disabled:
                self.audit(username[:64], "login failed", client=client)
                # One message for every cause: which user names exist is nobody's business.
                raise UnauthenticatedError("wrong user name or password")
            attempt.refund()
        if updated_hash is not None:  # the hasher's parameters were raised since this password was set
            self.store.update_user(user.id, password_hash=updated_hash)
        token = new_token()
        expires_at = utcnow() + self.session_length
        self.store.add_token(_token_row(user, TokenKind.SESSION, "web login", token, expires_at))
        self.audit(user.name, "logged in", client=client)
        result = LoginResult(user=SessionUser(name=user.name, role=Role(user.role)), expires_at=expires_at)
        return result, token

    def _verify(self, password: str, stored_hash: str, attempt: LoginAttempt) -> tuple[bool, str | None]:
        """The password checked against the hash once one of the verification places is free; a login that waits
        longer than VERIFICATION_WAIT_SECONDS is refused uncounted, its password never looked at."""
        if not self._verifications.acquire(timeout=VERIFICATION_WAIT_SECONDS):
            attempt.refund()
            raise TooManyAttemptsError(1, "too many logins being checked at once")
        try:
            return self.passwords.verify_and_update(password, stored_hash)
        finally:
            self._verifications.release()

    def logout(self, principal: Principal, client: str | None = None) -> None:
        """End the session the principal came with (an API token stays valid: it is revoked on its own)."""
        if principal.source == CredentialSource.SESSION and principal.token_id:
            self.store.delete_token(principal.token_id)
            self.audit(principal.name, "logged out", client=client)

    # ---- tokens --------------------------------------------------------------------------------------------------

    def create_token(self, principal: Principal, request: TokenCreate, client: str | None = None) -> TokenCreated:
        owner_name = request.user or principal.name
        if owner_name != principal.name and not principal.is_admin:
            raise ForbiddenError("only an admin may create a token for another user")
        if owner_name == ADMIN_TOKEN_USER:
            raise InvalidInputError(
                [FieldError("user", "the admin token is not a user: name the user the token is for")]
            )
        user = self.store.get_user(owner_name)
        token = new_token()
        expires_at = utcnow() + timedelta(days=request.expires_days) if request.expires_days else None
        row = self.store.add_token(_token_row(user, TokenKind.API, request.name, token, expires_at))
        self.audit(principal.name, "token created", "token", row.id, request.name, client, f"for {user.name}")
        return TokenCreated(**_token_read(row, user).model_dump(), token=token)

    def list_tokens(self, principal: Principal) -> list[TokenRead]:
        """The principal's own tokens and sessions; an admin sees everyone's."""
        if principal.is_admin:
            rows = self.store.list_tokens()
        else:
            user = self.store.get_user(principal.name)
            rows = self.store.list_tokens(user.id)
        return [_token_read(row, user) for row, user in rows]

    def revoke_token(self, principal: Principal, token_id: str, client: str | None = None) -> None:
        found = self.store.get_token(token_id)
        # Someone else's token is "not found" to a non-admin: its existence is not theirs to learn.
        if found is None or (found[1].name != principal.name and not principal.is_admin):
            raise NotFoundError(f"no token '{token_id}'")
        row, user = found
        self.store.delete_token(row.id)
        self.audit(principal.name, "token revoked", "token", row.id, row.name, client, f"of {user.name}")

    # ---- users ---------------------------------------------------------------------------------------------------

    def has_users(self) -> bool:
        return self.store.count_users() > 0

    def has_enabled_users(self) -> bool:
        return self.store.count_users(enabled_only=True) > 0

    def list_users(self) -> list[UserRead]:
        return [_user_read(user) for user in self.store.list_users()]

    def get_user(self, name: str) -> UserRead:
        return _user_read(self.store.get_user(name))

    def create_user(self, actor: str, request: UserCreate, client: str | None = None) -> UserRead:
        if request.name in RESERVED_USER_NAMES:
            raise InvalidInputError([FieldError("name", f"'{request.name}' is reserved")])
        if self.store.find_user(request.name) is not None:
            raise ConflictError(f"a user named '{request.name}' already exists")
        user = self.store.add_user(
            User(
                id=uuid.uuid4().hex,
                name=request.name,
                role=request.role.value,
                password_hash=self.passwords.hash(request.password),
            )
        )
        self.audit(actor, "user created", "user", user.id, user.name, client, f"role {user.role}")
        return _user_read(user)

    def update_user(self, actor: str, name: str, request: UserUpdate, client: str | None = None) -> UserRead:
        user = self.store.get_user(name)
        changes: dict = {}
        if request.role is not None and request.role != user.role:
            changes["role"] = request.role.value
        if request.disabled is not None and request.disabled != user.disabled:
            changes["disabled"] = request.disabled
        if request.password is not None:
            changes["password_hash"] = self.passwords.hash(request.password)
        if not changes:
            return _user_read(user)
        still_admin = changes.get("role", user.role) == Role.ADMIN and not changes.get("disabled", user.disabled)
        if user.role == Role.ADMIN and not user.disabled and not still_admin:
            if self.store.count_users(enabled_only=True, role=Role.ADMIN) <= 1:
                raise ConflictError(f"'{name}' is the last enabled admin: make another user admin first")
        updated = self.store.update_user(user.id, **changes)
        if "password_hash" in changes or changes.get("disabled"):
            # A changed password or a disabled user: whoever is logged in with the old state is logged out.
            self.store.delete_tokens(user.id, TokenKind.SESSION)
        described = ", ".join("password" if key == "password_hash" else f"{key} {changes[key]}" for key in changes)
        self.audit(actor, "user changed", "user", user.id, user.name, client, described)
        return _user_read(updated)

    # ---- who owns what -------------------------------------------------------------------------------------------

    def owner_of(self, kind: ResourceKind, resource_id: str) -> str | None:
        return self.store.owner(kind.value, resource_id)

    def check_may_change(self, principal: Principal, kind: ResourceKind, owner: str | None, what: str) -> None:
        """Admins change anything; members what they own; a resource nobody owns (made before authentication
        existed, or by the demo) only admins."""
        if principal.is_admin:
            return
        if not principal.can_write:
            raise ForbiddenError(f"a {principal.role} may not change anything")
        if owner is None:
            raise ForbiddenError(f"{kind} '{what}' has no owner: only an admin may change it")
        if owner != principal.name:
            raise ForbiddenError(f"{kind} '{what}' belongs to {owner}: members may change only their own")

    def record_owner(self, kind: ResourceKind, resource_id: str, principal: Principal) -> None:
        self.record_owner_name(kind, resource_id, principal.name)

    def record_owner_name(self, kind: ResourceKind, resource_id: str, owner: str) -> None:
        """What the platform makes for a user on its own (a pipeline stage's job) is theirs as if they had asked."""
        self.store.add_owner(kind.value, resource_id, owner)

    def forget_owner(self, kind: ResourceKind, resource_id: str) -> None:
        self.store.remove_owner(kind.value, resource_id)

    # ---- audit log -----------------------------------------------------------------------------------------------

    def audit(
        self,
        actor: str,
        action: str,
        resource_kind: str | None = None,
        resource_id: str | None = None,
        resource_name: str | None = None,
        client: str | None = None,
        detail: str = "",
    ) -> None:
        self.store.add_audit(
            AuditEntry(
                actor=actor[:64],
                action=action[:32],
                resource_kind=resource_kind,
                resource_id=resource_id[:64] if resource_id else None,
                resource_name=resource_name[:200] if resource_name else None,
                client=client[:64] if client else None,
                detail=detail,
            )
        )

    def audit_log(self, query: AuditQuery) -> list[AuditEntryRead]:
        return [AuditEntryRead.model_validate(entry, from_attributes=True) for entry in self.store.audit_entries(query)]

    def prune(self) -> None:
        """Forget expired sessions and tokens (at start: they are refused anyway, this only keeps the table small)."""
        self.store.delete_expired_tokens()


def _token_row(user: User, kind: TokenKind, name: str, token: str, expires_at: datetime | None) -> ApiToken:
    return ApiToken(
        id=uuid.uuid4().hex,
        user_id=user.id,
        kind=kind.value,
        name=name,
        token_hash=token_digest(token),
        prefix=token[:SHOWN_TOKEN_CHARACTERS],
        expires_at=expires_at,
    )


def _token_read(row: ApiToken, user: User) -> TokenRead:
    return TokenRead(
        id=row.id,
        name=row.name,
        kind=TokenKind(row.kind),
        user=user.name,
        prefix=row.prefix,
        created_at=row.created_at,
        last_used_at=row.last_used_at,
        expires_at=row.expires_at,
    )


def _user_read(user: User) -> UserRead:
    return UserRead(
        name=user.name,
        role=Role(user.role),
        disabled=user.disabled,
        created_at=user.created_at,
        updated_at=user.updated_at,
    )
