"""A metrics query returns at most PLATFORM_METRICS_MAX_POINTS points across its keys (docs/security.md, "Limits");
within the limit it returns every point as stored, as before."""

import pytest

from training_platform.errors import InvalidInputError
from training_platform.metrics.live import POLICY_VIOLATION, TOO_BIG, ClientBudget, LiveHub
from training_platform.metrics.service import MAX_QUERY_KEYS
from training_platform.platform import Platform

MAX_POINTS = 100


@pytest.fixture
def bounded(settings):
    platform = Platform.open(settings.model_copy(update={"metrics_max_points": MAX_POINTS}))
    yield platform
    platform.close()


def write(platform, name: str, keys: int, steps: int) -> str:
    job_id = platform.jobs.get_or_create_external(name, source="test").id
    batch = {step: {f"key{k:03d}": float(step + k) for k in range(keys)} for step in range(steps)}
    platform.metrics.store.write_batch(job_id, batch)
    return job_id


def points(answer) -> int:
    return sum(len(series.steps) for series in answer.series)


def test_within_the_limit_every_point_comes_back(bounded):
    job_id = write(bounded, "small", keys=2, steps=50)
    answer = bounded.metrics.query(job_id, None, None, None, None)
    assert points(answer) == 100 and not any(series.downsampled for series in answer.series)


def test_over_the_limit_the_series_share_it(bounded):
    job_id = write(bounded, "large", keys=4, steps=500)
    for requested in (None, 10_000):
        answer = bounded.metrics.query(job_id, None, None, None, requested)
        assert points(answer) <= MAX_POINTS and all(series.downsampled for series in answer.series)
        assert all(series.total_points == 500 for series in answer.series)
    # A smaller request is kept to.
    assert all(len(s.steps) <= 5 for s in bounded.metrics.query(job_id, ["key000"], None, None, 5).series)
    # One key may use the whole budget.
    [series] = bounded.metrics.query(job_id, ["key001"], None, None, None).series
    assert MAX_POINTS // 4 < len(series.steps) <= MAX_POINTS  # more than its share among four keys


def test_more_series_than_the_limit_can_show_is_refused(bounded):
    job_id = write(bounded, "wide", keys=MAX_POINTS // 2 + 1, steps=3)
    with pytest.raises(InvalidInputError) as caught:
        bounded.metrics.query(job_id, None, None, None, None)
    assert caught.value.errors[0].field == "keys" and "PLATFORM_METRICS_MAX_POINTS" in caught.value.errors[0].message
    assert points(bounded.metrics.query(job_id, ["key000", "key001"], None, None, None)) == 6
    with pytest.raises(InvalidInputError, match=f"at most {MAX_QUERY_KEYS} keys"):
        bounded.metrics.query(job_id, [f"k{i}" for i in range(MAX_QUERY_KEYS + 1)], None, None, None)


def test_connection_slots_are_counted_and_given_back():
    hub = LiveHub(max_connections=2)
    with hub.connection("ann") as first, hub.connection("bea") as second:
        with hub.connection("cy") as third:
            assert (first, second) == (None, None) and "PLATFORM_MAX_WEBSOCKETS" in third
        assert hub.connections == 2
    assert hub.connections == 0


def test_one_user_holds_no_more_places_than_their_share():
    hub = LiveHub(max_connections=10, max_per_user=2)
    with hub.connection("ann") as first, hub.connection("ann") as second:
        with hub.connection("ann") as third, hub.connection("bea") as other:
            assert (first, second, other) == (None, None, None)
            assert third == "you hold 2 live connections already (PLATFORM_MAX_WEBSOCKETS_PER_USER)"
        assert hub.connections == 2
    with hub.connection("ann") as again:  # given back when the sockets closed
        assert again is None
    assert hub.connections == 0


def test_a_client_may_send_a_keep_alive_now_and_then():
    now = [0.0]
    budget = ClientBudget(clock=lambda: now[0])
    message = {"type": "websocket.receive", "text": "ping"}
    assert budget.refusal({"type": "websocket.receive", "bytes": b"x" * 2000})[0] == TOO_BIG
    assert all(budget.refusal(message) is None for _ in range(60))
    assert budget.refusal(message)[0] == POLICY_VIOLATION
    now[0] = 61.0  # a new minute
    assert budget.refusal(message) is None
