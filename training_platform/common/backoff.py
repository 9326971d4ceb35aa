"""How long to wait before trying again something that failed (an alert's delivery, a tracker's export)."""

import random
from collections.abc import Callable


def retry_delay(
    attempts: int, base: float, cap: float, retry_after: float | None = None, rng: Callable[[], float] = random.random
) -> float:
    """The wait after the `attempts`-th failed attempt: base, 2·base, 4·base, … up to `cap`, each drawn from its
    upper half ("equal jitter") so that what failed together does not all come back at the same moment; a
    Retry-After the other side asked for (Slack's rate limit) is honoured up to `cap`."""
    delay = min(cap, base * 2.0 ** min(attempts - 1, 62))
    delay = delay / 2 + rng() * delay / 2
    if retry_after is not None:
        delay = max(delay, min(retry_after, cap))
    return delay
