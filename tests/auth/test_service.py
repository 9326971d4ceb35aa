"""The auth store and service on SQLite and PostgreSQL: passwords, sessions, tokens, ownership, audit, rate limit."""

import hashlib
import os
import stat
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from sqlalchemy import text

from training_platform.auth.errors import ForbiddenError, TooManyAttemptsError, UnauthenticatedError
from training_platform.auth.ratelimit import LoginRateLimit
from training_platform.auth.schemas import (
    AuditQuery,
    CredentialSource,
    Principal,
    ResourceKind,
    Role,
    TokenCreate,
    UserCreate,
    UserUpdate,
)
from training_platform.auth.service import TOKEN_PREFIX, AuthService
from training_platform.auth.setup import (
    create_first_admin,
    is_loopback,
    open_auth,
    refusal_before_start,
    startup_refusal,
)
from training_platform.auth.store import AuthStore
from training_platform.db import Database
from training_platform.db.types import utcnow
from training_platform.errors import ConflictError, InvalidInputError, NotFoundError
from training_platform.settings import Settings

ADMIN_TOKEN = "a" * 20 + "-admin-token-for-tests"


@pytest.fixture
def auth(db) -> AuthService:
    return AuthService(AuthStore(db), ADMIN_TOKEN, session_hours=1, login_attempts_per_minute=3)


def principal(name: str, role: Role) -> Principal:
    return Principal(name=name, role=role, source=CredentialSource.TOKEN)


def test_login_starts_a_session_that_authenticates_and_logout_ends_it(auth):
    auth.create_user("test", UserCreate(name="alice", password="correct horse", role=Role.MEMBER))
    result, token = auth.login("alice", "correct horse", "10.0.0.1")
    assert (result.user.name, result.user.role) == ("alice", Role.MEMBER) and token.startswith(TOKEN_PREFIX)
    assert timedelta(minutes=59) < result.expires_at - utcnow() <= timedelta(hours=1)
    session = auth.authenticate(token, CredentialSource.SESSION)
    assert (session.name, session.role, session.source) == ("alice", Role.MEMBER, CredentialSource.SESSION)
    auth.logout(session)
    with pytest.raises(UnauthenticatedError):
        auth.authenticate(token)
    actions = [entry.action for entry in auth.audit_log(AuditQuery(actor="alice"))]
    assert actions == ["logged out", "logged in"]


def test_a_wrong_password_and_an_unknown_user_fail_alike_and_are_audited(auth):
    auth.create_user("test", UserCreate(name="bob", password="s3cret-pass"))
    messages = []
    for name, password in (("bob", "wrong-pass"), ("nobody", "s3cret-pass")):
        with pytest.raises(UnauthenticatedError) as error:
            auth.login(name, password, "10.0.0.2")
        messages.append(str(error.value))
    assert messages[0] == messages[1] == "wrong user name or password"
    failed = auth.audit_log(AuditQuery(action="login failed"))
    assert [(entry.actor, entry.client) for entry in failed] == [("nobody", "10.0.0.2"), ("bob", "10.0.0.2")]


def test_tokens_are_shown_once_and_stored_as_their_sha256_only(auth, db):
    auth.create_user("test", UserCreate(name="carol", password="password-1"))
    carol = principal("carol", Role.MEMBER)
    created = auth.create_token(carol, TokenCreate(name="ci"))
    assert created.token.startswith(TOKEN_PREFIX) and len(created.token) > 40
    assert auth.authenticate(created.token).name == "carol"
    listed = auth.list_tokens(carol)
    assert [token.id for token in listed] == [created.id] and not hasattr(listed[0], "token")
    assert created.token.startswith(listed[0].prefix) and len(listed[0].prefix) < 12
    with db.engine.connect() as connection:
        rows = [tuple(row) for row in connection.execute(text("SELECT * FROM api_tokens"))]
    assert len(rows) == 1 and hashlib.sha256(created.token.encode()).hexdigest() in rows[0]
    assert not any(created.token in str(value) for value in rows[0])
    auth.revoke_token(carol, created.id)
    with pytest.raises(UnauthenticatedError):
        auth.authenticate(created.token)


def test_expired_tokens_and_disabled_users_are_refused(auth):
    auth.create_user("test", UserCreate(name="dave", password="password-2"))
    auth.create_user("test", UserCreate(name="root", password="password-3", role=Role.ADMIN))
    dave = principal("dave", Role.MEMBER)
    token = auth.create_token(dave, TokenCreate(name="short", expires_days=1)).token
    with auth.store.db.engine.begin() as connection:
        connection.execute(text("UPDATE api_tokens SET expires_at = :past"), {"past": utcnow() - timedelta(seconds=1)})
    with pytest.raises(UnauthenticatedError):
        auth.authenticate(token)
    fresh = auth.create_token(dave, TokenCreate(name="fresh")).token
    assert auth.authenticate(fresh).name == "dave"
    auth.update_user("root", "dave", UserUpdate(disabled=True))
    with pytest.raises(UnauthenticatedError):
        auth.authenticate(fresh)
    with pytest.raises(UnauthenticatedError):
        auth.login("dave", "password-2", "10.0.0.3")


def test_a_new_password_ends_web_sessions_but_not_api_tokens(auth):
    auth.create_user("test", UserCreate(name="erin", password="password-4"))
    _, session = auth.login("erin", "password-4", "10.0.0.4")
    token = auth.create_token(principal("erin", Role.MEMBER), TokenCreate(name="script")).token
    auth.update_user("test", "erin", UserUpdate(password="password-5"))
    with pytest.raises(UnauthenticatedError):
        auth.authenticate(session)
    assert auth.authenticate(token).name == "erin"
    assert auth.login("erin", "password-5", "10.0.0.4")[0].user.name == "erin"


def test_the_admin_token_is_an_admin_and_nothing_else_is(auth, db):
    admin = auth.authenticate(ADMIN_TOKEN)
    assert (admin.name, admin.role, admin.source) == ("admin-token", Role.ADMIN, CredentialSource.ADMIN_TOKEN)
    for wrong in (ADMIN_TOKEN[:-1], ADMIN_TOKEN + "x", "", TOKEN_PREFIX + "unknown"):
        with pytest.raises(UnauthenticatedError):
            auth.authenticate(wrong)
    without = AuthService(AuthStore(db), None, session_hours=1, login_attempts_per_minute=3)
    with pytest.raises(UnauthenticatedError):
        without.authenticate(ADMIN_TOKEN)
    with pytest.raises(InvalidInputError):
        auth.create_token(admin, TokenCreate(name="x"))  # the admin token is nobody's: name the user


def test_users_are_unique_and_the_last_admin_stays(auth):
    auth.create_user("test", UserCreate(name="boss", password="password-6", role=Role.ADMIN))
    with pytest.raises(ConflictError):
        auth.create_user("test", UserCreate(name="boss", password="password-6"))
    with pytest.raises(InvalidInputError):
        auth.create_user("test", UserCreate(name="admin-token", password="password-6"))
    for change in (UserUpdate(role=Role.MEMBER), UserUpdate(disabled=True)):
        with pytest.raises(ConflictError, match="last enabled admin"):
            auth.update_user("test", "boss", change)
    auth.create_user("test", UserCreate(name="deputy", password="password-7", role=Role.ADMIN))
    assert auth.update_user("test", "boss", UserUpdate(role=Role.VIEWER)).role == Role.VIEWER
    with pytest.raises(NotFoundError):
        auth.update_user("test", "ghost", UserUpdate(role=Role.VIEWER))
    assert [(user.name, user.role) for user in auth.list_users()] == [("boss", "viewer"), ("deputy", "admin")]
    changed = auth.audit_log(AuditQuery(resource="boss", action="user changed"))
    assert [entry.detail for entry in changed] == ["role viewer"]


def test_members_change_only_what_they_own(auth):
    alice, bob = principal("alice", Role.MEMBER), principal("bob", Role.MEMBER)
    viewer, admin = principal("val", Role.VIEWER), principal("root", Role.ADMIN)
    auth.record_owner(ResourceKind.JOB, "j1", alice)
    auth.record_owner(ResourceKind.JOB, "j1", bob)  # a second create answer keeps the first owner
    owner = auth.owner_of(ResourceKind.JOB, "j1")
    assert owner == "alice" and auth.owner_of(ResourceKind.DATASET, "j1") is None
    auth.check_may_change(alice, ResourceKind.JOB, owner, "j1")
    auth.check_may_change(admin, ResourceKind.JOB, owner, "j1")
    with pytest.raises(ForbiddenError, match="belongs to alice"):
        auth.check_may_change(bob, ResourceKind.JOB, owner, "j1")
    with pytest.raises(ForbiddenError):
        auth.check_may_change(viewer, ResourceKind.JOB, owner, "j1")
    with pytest.raises(ForbiddenError, match="only an admin"):
        auth.check_may_change(alice, ResourceKind.JOB, None, "unowned")
    auth.forget_owner(ResourceKind.JOB, "j1")
    assert auth.owner_of(ResourceKind.JOB, "j1") is None


def test_tokens_of_others_are_not_found_by_members_and_revocable_by_admins(auth):
    for name in ("fay", "gus"):
        auth.create_user("test", UserCreate(name=name, password="password-8"))
    fay, gus = principal("fay", Role.MEMBER), principal("gus", Role.MEMBER)
    token = auth.create_token(fay, TokenCreate(name="mine"))
    with pytest.raises(ForbiddenError):
        auth.create_token(gus, TokenCreate(name="for fay", user="fay"))
    with pytest.raises(NotFoundError):
        auth.revoke_token(gus, token.id)
    assert auth.list_tokens(gus) == []
    admin = principal("admin-token", Role.ADMIN)
    assert [t.id for t in auth.list_tokens(admin)] == [token.id]
    auth.revoke_token(admin, token.id)
    entries = auth.audit_log(AuditQuery(resource_kind="token"))
    assert [(e.actor, e.action) for e in entries] == [("admin-token", "token revoked"), ("fay", "token created")]


def fail(limit: LoginRateLimit, client: str, username: str) -> None:
    with pytest.raises(UnauthenticatedError), limit.attempt(client, username):
        raise UnauthenticatedError("wrong user name or password")


def test_failed_logins_are_limited_per_address_and_per_user_name():
    limit = LoginRateLimit(attempts_per_minute=2)
    for _ in range(2):
        fail(limit, "10.0.0.9", "hal")
    with pytest.raises(TooManyAttemptsError) as error, limit.attempt("10.0.0.9", "someone-else"):
        pass  # the address is spent
    assert 1 <= error.value.retry_after <= 60
    with pytest.raises(TooManyAttemptsError), limit.attempt("10.0.0.10", "HAL"):
        pass  # and so is the user name, from any address
    with limit.attempt("10.0.0.10", "ivy"):
        pass


def test_attempts_count_while_they_are_verified_and_a_refunded_one_not_at_all():
    limit = LoginRateLimit(attempts_per_minute=2)
    for _ in range(5):  # successes give their count back
        with limit.attempt("10.0.0.12", "kim") as attempt:
            attempt.refund()
    with limit.attempt("10.0.0.12", "kim"), limit.attempt("10.0.0.13", "kim"):
        # Two attempts for kim are being verified: a third, from anywhere, is refused before it is looked at.
        with pytest.raises(TooManyAttemptsError) as error, limit.attempt("10.0.0.14", "kim"):
            pass
        assert error.value.retry_after == 1
    with pytest.raises(TooManyAttemptsError), limit.attempt("10.0.0.14", "kim"):
        pass  # both failed (they were not refunded): kim's minute is spent
    with limit.attempt("10.0.0.14", "lou") as attempt:
        attempt.refund()


def test_parallel_wrong_logins_are_verified_no_more_often_than_the_limit(auth):
    """Six at once against a limit of three: three are verified (401), the others refused before (429)."""
    auth.create_user("test", UserCreate(name="max", password="password-7"))

    def guess(number: int) -> type[Exception]:
        try:
            auth.login("max", f"guess-{number}", f"10.0.1.{number}")
        except (UnauthenticatedError, TooManyAttemptsError) as error:
            return type(error)
        raise AssertionError("a wrong password logged in")

    with ThreadPoolExecutor(6) as pool:
        outcomes = Counter(pool.map(guess, range(6)))
    assert outcomes == {UnauthenticatedError: 3, TooManyAttemptsError: 3}
    failed = [e for e in auth.audit_log(AuditQuery(actor="max")) if e.action == "login failed"]
    assert len(failed) == 3


def test_the_login_limit_refuses_before_checking_the_password(auth):
    auth.create_user("test", UserCreate(name="jan", password="password-9"))
    for _ in range(3):
        with pytest.raises(UnauthenticatedError):
            auth.login("jan", "wrong-password", "10.0.0.11")
    with pytest.raises(TooManyAttemptsError):
        auth.login("jan", "password-9", "10.0.0.11")


def test_first_start_on_loopback_makes_an_admin_with_a_private_password_file(tmp_path, database_url):
    settings = Settings(home=tmp_path / "home", database_url=database_url, host="127.0.0.1")
    settings.home.mkdir()
    db = Database(database_url)
    db.upgrade()
    auth = open_auth(db, settings)
    path = create_first_admin(auth, settings)
    assert path == settings.home / "admin-password"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    result, _ = auth.login("admin", path.read_text().strip(), "127.0.0.1")
    assert result.user.role == Role.ADMIN
    assert create_first_admin(auth, settings) is None  # once only
    assert startup_refusal(settings.model_copy(update={"host": "0.0.0.0"}), auth.has_enabled_users()) is None
    db.dispose()


def test_a_server_open_to_the_network_needs_authentication(tmp_path):
    def settings(**values) -> Settings:
        return Settings(home=tmp_path, database_url=f"sqlite:///{tmp_path / 'p.db'}", **values)

    refusal = startup_refusal(settings(host="0.0.0.0"), has_enabled_users=False)
    assert refusal and "refusing to serve on 0.0.0.0 without authentication" in refusal
    assert startup_refusal(settings(host="0.0.0.0", admin_token=ADMIN_TOKEN), has_enabled_users=False) is None
    assert startup_refusal(settings(host="0.0.0.0"), has_enabled_users=True) is None
    assert startup_refusal(settings(host="127.0.0.1"), has_enabled_users=False) is None
    assert "too short" in startup_refusal(settings(host="127.0.0.1", admin_token="short"), has_enabled_users=False)
    assert "refusing" in refusal_before_start(settings(host="192.168.1.20"))
    network = settings(host="0.0.0.0")
    assert create_first_admin(open_auth(Database(network.database_url), network), network) is None
    hosts = ("localhost", "127.0.0.1", "127.8.0.1", "::1", "[::1]", "0.0.0.0", "example.org")
    assert [is_loopback(host) for host in hosts] == [True] * 5 + [False] * 2
