"""Reading a job's metrics back: as the platform serves them, and as a tracker holds them (tests/trackers,
and the engines' end-to-end tests that export)."""

import math
from pathlib import Path

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from tests.support.helpers import ServerProcess


def platform_points(server: ServerProcess, job_id: str) -> dict[str, dict[int, float]]:
    """The job's metrics as the platform serves them, without what trackers are not sent: the server's own system
    samples and the timestamp (a step's time in every tracker)."""
    series = server.api.get(f"/monitoring/{job_id}/metrics").json()["series"]
    return {
        s["key"]: dict(zip(s["steps"], s["values"], strict=True))
        for s in series
        if not s["key"].startswith("system/") and s["key"] != "timestamp"
    }


def tensorboard_points(folder: Path) -> tuple[dict[str, dict[int, float]], list[str]]:
    events = EventAccumulator(str(folder), size_guidance={"scalars": 0, "tensors": 0}, purge_orphaned_data=False)
    events.Reload()
    scalars = {tag: [(e.step, e.value) for e in events.Scalars(tag)] for tag in events.Tags()["scalars"]}
    for tag, points in scalars.items():
        assert len(points) == len({step for step, _ in points}), f"{tag} has a step twice"
    return {tag: dict(points) for tag, points in scalars.items()}, events.Tags()["tensors"]


def assert_same(exported: dict[str, dict[int, float]], expected: dict[str, dict[int, float]], rel: float) -> None:
    assert set(exported) == set(expected)
    for key, points in expected.items():
        assert set(exported[key]) == set(points), key
        for step, value in points.items():
            assert math.isclose(exported[key][step], value, rel_tol=rel, abs_tol=1e-12), (key, step)


def mlflow_history(run: dict) -> dict[str, dict[int, float]]:
    """A run read by tests/support/mlflow_server.py, as key → step → value."""
    return {key: {step: value for step, value, _ in points} for key, points in run["history"].items()}
