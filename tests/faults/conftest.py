"""Fault tests: the platform's pieces wired by hand on SQLite and PostgreSQL (no composition root), and real
servers."""

import pytest

from training_platform.jobs.store import JobStore


@pytest.fixture
def jobs(db) -> JobStore:
    return JobStore(db)
