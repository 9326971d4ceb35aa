"""The auth domain's errors; the API layer answers them with 401, 403 and 429."""

from training_platform.errors import PlatformError


class UnauthenticatedError(PlatformError):
    """No credential, or one that is unknown, expired, revoked or belongs to a disabled user (HTTP 401)."""


class ForbiddenError(PlatformError):
    """A known user whose role or ownership does not allow the action (HTTP 403)."""


class TooManyAttemptsError(PlatformError):
    """Too many failed logins from one address or for one user name, or too many being verified at once (HTTP 429,
    Retry-After)."""

    def __init__(self, retry_after: int, reason: str = "too many failed logins"):
        self.retry_after = retry_after
        super().__init__(f"{reason}: try again in {retry_after} s")
