"""Alert services over the test database (SQLite and PostgreSQL) with a backoff of milliseconds, and a receiver."""

import pytest

from tests.alerts.support import LOOPBACK, Receiver, fails_first
from training_platform.alerts.service import AlertService
from training_platform.alerts.store import AlertStore
from training_platform.jobs.store import JobStore


@pytest.fixture
def receiver():
    server = Receiver(fails_first(2))
    yield server
    server.close()


@pytest.fixture
def make_service(db):
    """AlertServices over the test database (SQLite and PostgreSQL); each closed at the end."""
    made: list[AlertService] = []

    def make(**overrides) -> AlertService:
        options = dict(
            base_url="http://platform.test:8000",
            timeout_seconds=2.0,
            max_attempts=5,
            backoff_base_seconds=0.01,
            backoff_max_seconds=0.05,
            allowed_networks=[LOOPBACK],  # the receiver's: loopback is refused unless allowed
        )
        service = AlertService(AlertStore(db), JobStore(db).find, **{**options, **overrides})
        made.append(service)
        return service

    yield make
    for service in made:
        service.close()
