"""One lock per key (a job's id), made on first use: what a job's launch and stops, its diagnosis or its metrics
ingestion take so that two of them never interleave for the same job while other jobs go on.

Locks are kept for the life of the process: a few hundred bytes a job, and a lock dropped while someone waits on it
would let a second holder in.
"""

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

Lock = TypeVar("Lock")


class KeyedLocks(Generic[Lock]):
    def __init__(self, make: Callable[[], Lock] = threading.Lock):
        self._make = make
        self._locks: dict[str, Lock] = {}
        self._guard = threading.Lock()  # two first uses of one key from two threads get the same lock

    def __call__(self, key: str) -> Lock:
        with self._guard:
            lock = self._locks.get(key)
            if lock is None:
                lock = self._locks[key] = self._make()
            return lock
