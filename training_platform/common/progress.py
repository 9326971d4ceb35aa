"""Progress of long work (dataset audits, exports), as a fraction and a message, split over weighted steps."""

from collections.abc import Callable

ProgressCallback = Callable[[float, str], None]


def ignore_progress(fraction: float, message: str) -> None:
    """For callers that show no progress."""


class Steps:
    """Maps each step's own 0..1 progress into the whole job's, by the steps' weights."""

    def __init__(self, callback: ProgressCallback, weights: dict[str, float]):
        self.callback = callback
        total = sum(weights.values())
        self._start: dict[str, float] = {}
        self._share: dict[str, float] = {}
        done = 0.0
        for name, weight in weights.items():
            self._start[name], self._share[name] = done / total, weight / total
            done += weight

    def report(self, step: str, fraction: float = 0.0) -> None:
        self.callback(min(1.0, self._start[step] + self._share[step] * fraction), step)

    def within(self, step: str) -> ProgressCallback:
        return lambda fraction, _message: self.report(step, fraction)
