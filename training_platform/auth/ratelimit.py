"""Failed logins counted per client address and per user name over a moving minute (the `limits` package, in
memory: one server process per home, docs/architecture.md)."""

import math
import time

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from training_platform.auth.errors import TooManyAttemptsError


class LoginRateLimit:
    def __init__(self, attempts_per_minute: int):
        self.item = RateLimitItemPerMinute(attempts_per_minute)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def check(self, client: str, username: str) -> None:
        """Refuse before the password is even looked at: a guesser learns nothing once the limit is reached."""
        waits = [
            self._seconds_until_free(key) for key in _keys(client, username) if not self.limiter.test(self.item, *key)
        ]
        if waits:
            raise TooManyAttemptsError(max(waits))

    def failed(self, client: str, username: str) -> None:
        for key in _keys(client, username):
            self.limiter.hit(self.item, *key)

    def _seconds_until_free(self, key: tuple[str, str]) -> int:
        stats = self.limiter.get_window_stats(self.item, *key)
        return max(1, math.ceil(stats.reset_time - time.time()))


def _keys(client: str, username: str) -> list[tuple[str, str]]:
    return [("client", client), ("user", username.casefold())]
