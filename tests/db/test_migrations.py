"""The Alembic history builds the schema the code expects, on SQLite and on PostgreSQL."""

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import SQLModel

from training_platform.db import (
    Database,
    tables,  # noqa: F401
)
from training_platform.db.database import alembic_config


def test_upgrade_creates_every_table_and_matches_the_models(database_url):
    db = Database(database_url)
    db.upgrade()
    names = set(inspect(db.engine).get_table_names())
    assert {"jobs", "job_events", "models", "datasets", "alembic_version"} <= names
    with db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), SQLModel.metadata)
    assert differences == [], f"tables changed without a migration: {differences}"
    db.dispose()


def test_upgrade_is_idempotent_and_downgrade_reverses_it(database_url):
    db = Database(database_url)
    db.upgrade()
    db.upgrade()
    config = alembic_config(database_url)
    command.downgrade(config, "base")
    assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}
    db.upgrade()
    assert "jobs" in inspect(db.engine).get_table_names()
    db.dispose()
