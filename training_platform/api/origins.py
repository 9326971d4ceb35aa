"""The Host and Origin checks (steps 1 and 2 of the access checks, api/security.py)."""

from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.types import Scope

from training_platform.api.refusal import Refusal
from training_platform.auth.setup import is_loopback
from training_platform.settings import Settings

WILDCARD_BINDS = frozenset({"", "0.0.0.0", "::", "[::]"})
DEFAULT_PORTS = {"http": 80, "https": 443}


def allowed_host_names(settings: Settings) -> frozenset[str]:
    """Loopback is always allowed (is_loopback); these are the other names the server answers to."""
    names = {name.strip().strip("[]").rstrip(".").lower() for name in settings.allowed_hosts if name.strip()}
    if settings.host not in WILDCARD_BINDS:
        names.add(settings.host.strip("[]").lower())
    return frozenset(names)


class HostAndOriginChecks:
    """The names and origins this server answers to, from the settings, and the checks of a request against them."""

    def __init__(self, settings: Settings):
        self.host_names = allowed_host_names(settings)
        self.any_host = "*" in self.host_names
        self.origins = frozenset(filter(None, (_origin_key(origin) for origin in settings.allowed_origins)))

    def check_host(self, connection: HTTPConnection) -> None:
        host = connection.headers.get("host", "")
        name = _host_name(host)
        if self.any_host or is_loopback(name) or name in self.host_names:
            return
        raise Refusal(
            400,
            f"host '{host[:100]}' is not one this server answers to: add it to PLATFORM_ALLOWED_HOSTS "
            "if clients reach the server by that name",
        )

    def check_origin(self, scope: Scope, connection: HTTPConnection) -> None:
        origin = connection.headers.get("origin")
        if origin is None:
            return  # not sent by a browser's cross-site request: scripts and the CLI send none
        own_scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        own = _origin_key(f"{own_scheme}://{connection.headers.get('host', '')}")
        key = _origin_key(origin)
        if key is not None and (key == own or key in self.origins):
            return
        raise Refusal(
            403,
            f"cross-origin request refused: origin '{origin[:100]}' is not this server's "
            "(add it to PLATFORM_ALLOWED_ORIGINS if it is yours)",
        )


def _host_name(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        host = host.rsplit(":", 1)[0]
    return host.rstrip(".")


def _origin_key(origin: str) -> tuple[str, str, int] | None:
    """An origin as (scheme, host, port), default ports filled in; None for anything else ('null' included)."""
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.rstrip("."), port or DEFAULT_PORTS[parts.scheme]
