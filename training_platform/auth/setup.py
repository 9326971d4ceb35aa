"""The first start, and whether a server may open to the network (docs/security.md).

On loopback the first start creates the user `admin` with a random password in `<home>/admin-password`, so
`make run` stays two commands. A server bound to any other address must not start without authentication
configured: PLATFORM_ADMIN_TOKEN, or a user who can log in (the way Jupyter refuses to open to the network without
a password).
"""

import ipaddress
import os
import secrets
from pathlib import Path

from training_platform.auth.schemas import SYSTEM_ACTOR, Role, UserCreate
from training_platform.auth.service import AuthService
from training_platform.auth.store import AuthStore
from training_platform.db import Database
from training_platform.settings import Settings

FIRST_ADMIN = "admin"
ADMIN_PASSWORD_FILE = "admin-password"
LOOPBACK_NAMES = frozenset({"localhost", "localhost.", "ip6-localhost"})
# A shorter admin token could be guessed; `secrets.token_urlsafe(32)` gives 43 characters.
MIN_ADMIN_TOKEN_LENGTH = 16


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def server_url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}"


def admin_token_of(settings: Settings) -> str | None:
    """PLATFORM_ADMIN_TOKEN, an empty value counting as none."""
    return (settings.admin_token.get_secret_value() if settings.admin_token else "") or None


def open_auth(db: Database, settings: Settings) -> AuthService:
    return AuthService(
        AuthStore(db),
        admin_token_of(settings),
        settings.session_hours,
        settings.login_attempts_per_minute,
        settings.login_verifications,
    )


def create_first_admin(auth: AuthService, settings: Settings) -> Path | None:
    """On a loopback server without users: the admin, whose password is written to a file only its owner can
    read (never to the log). Returns the file, or None when nothing was created."""
    if not is_loopback(settings.host) or auth.has_users():
        return None
    password = secrets.token_urlsafe(18)
    path = settings.home / ADMIN_PASSWORD_FILE
    # The file first: an admin whose password was never written down would lock the operator out.
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(password + "\n")
    os.chmod(path, 0o600)  # os.open's mode applies only to a file it creates
    auth.create_user(SYSTEM_ACTOR, UserCreate(name=FIRST_ADMIN, password=password, role=Role.ADMIN))
    return path


def startup_refusal(settings: Settings, has_enabled_users: bool) -> str | None:
    """Why this server must not start, or None: a guessable admin token, or a server bound beyond loopback with no
    way to authenticate."""
    admin_token = admin_token_of(settings)
    if admin_token is not None and len(admin_token) < MIN_ADMIN_TOKEN_LENGTH:
        return (
            f"PLATFORM_ADMIN_TOKEN is too short: use at least {MIN_ADMIN_TOKEN_LENGTH} random characters, e.g. "
            "`python -c 'import secrets; print(secrets.token_urlsafe(32))'`"
        )
    if is_loopback(settings.host) or admin_token is not None or has_enabled_users:
        return None
    return refusal_message(settings.host)


def refusal_message(host: str) -> str:
    return (
        f"refusing to serve on {host} without authentication: anyone who can reach the port would control the "
        "platform. Set PLATFORM_ADMIN_TOKEN (then create users with `tplat auth users create`), or start once on "
        "127.0.0.1 to create the first admin, or bind 127.0.0.1 (docs/security.md)"
    )


def refusal_before_start(settings: Settings) -> str | None:
    """startup_refusal for `tplat serve` before it starts the server (which checks again once it is up); the
    database is read only when the answer depends on it."""
    if is_loopback(settings.host) or admin_token_of(settings) is not None:
        return startup_refusal(settings, has_enabled_users=False)
    db = Database(settings.database_url)
    try:
        db.upgrade()
        return startup_refusal(settings, has_enabled_users=AuthStore(db).count_users(enabled_only=True) > 0)
    finally:
        db.dispose()
