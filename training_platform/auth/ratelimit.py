"""Logins counted per client address and per user name over a moving minute (the `limits` package, in memory: one
server process per home, docs/architecture.md). An attempt counts from before its password is verified, so that
parallel guesses cannot all pass the limit while each waits for its hash; one that succeeds gives its count back.
"""

import math
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from training_platform.auth.errors import TooManyAttemptsError


class LoginAttempt:
    """One attempt while it is counted; `refund` when it must not count (it succeeded, or was never verified)."""

    def __init__(self) -> None:
        self.counts = True

    def refund(self) -> None:
        self.counts = False


class LoginRateLimit:
    def __init__(self, attempts_per_minute: int):
        self.item = RateLimitItemPerMinute(attempts_per_minute)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self._lock = threading.Lock()
        # Attempts being verified now: they count against the limit until they are settled.
        self._in_flight: Counter[tuple[str, str]] = Counter()

    @contextmanager
    def attempt(self, client: str, username: str) -> Iterator[LoginAttempt]:
        """An attempt counted before the password is even looked at (a guesser learns nothing once the limit is
        reached); TooManyAttemptsError when failed and unsettled attempts fill the minute already. On leaving, the
        attempt is recorded as a failure unless it was refunded."""
        keys = _keys(client, username)
        with self._lock:
            waits = [self._seconds_until_free(key) for key in keys if self._used(key) >= self.item.amount]
            if waits:
                raise TooManyAttemptsError(max(waits))
            self._in_flight.update(keys)
        attempt = LoginAttempt()
        try:
            yield attempt
        finally:
            with self._lock:
                for key in keys:
                    if attempt.counts:
                        self.limiter.hit(self.item, *key)
                    self._in_flight[key] -= 1
                    if self._in_flight[key] <= 0:
                        del self._in_flight[key]

    def _used(self, key: tuple[str, str]) -> int:
        failed = self.item.amount - self.limiter.get_window_stats(self.item, *key).remaining
        return failed + self._in_flight[key]

    def _seconds_until_free(self, key: tuple[str, str]) -> int:
        stats = self.limiter.get_window_stats(self.item, *key)
        if stats.remaining > 0:  # attempts in progress fill the rest: one of them settles within seconds
            return 1
        return max(1, math.ceil(stats.reset_time - time.time()))


def _keys(client: str, username: str) -> list[tuple[str, str]]:
    return [("client", client), ("user", username.casefold())]
