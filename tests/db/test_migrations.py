"""The Alembic history builds the schema the code expects, on SQLite and on PostgreSQL."""

import json

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
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


def test_a_jobs_field_mappings_become_its_data_formats(database_url):
    """Migration 0010: `jobs.dataset_fields` ({path: mapping}) → `jobs.dataset_formats` ({path: {field_mapping}})."""
    db = Database(database_url)
    config = alembic_config(database_url)
    command.upgrade(config, "0009")
    with db.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO jobs (id, name, algorithm, engine, run_mode, model_path, dataset_paths, dataset_fields, "
                "params, status, output_dir, attempt, gpus, health_settings, health, created_at, updated_at) VALUES "
                "('j1', 'mapped', 'sft', 'trl', 'local', '/m', '[\"/d.jsonl\"]', "
                "'{\"/d.jsonl\": {\"prompt\": \"question\"}}', '{}', 'pending', '/o', 0, '[]', '{}', 'healthy', "
                "'2026-11-24 00:00:00', '2026-11-24 00:00:00')"
            )
        )
    command.upgrade(config, "head")
    with db.engine.connect() as connection:
        formats = connection.execute(text("SELECT dataset_formats FROM jobs WHERE id = 'j1'")).scalar_one()
    formats = json.loads(formats) if isinstance(formats, str) else formats
    assert formats == {"/d.jsonl": {"field_mapping": {"prompt": "question"}}}
    command.downgrade(config, "0009")
    with db.engine.connect() as connection:
        fields = connection.execute(text("SELECT dataset_fields FROM jobs WHERE id = 'j1'")).scalar_one()
    assert (json.loads(fields) if isinstance(fields, str) else fields) == {"/d.jsonl": {"prompt": "question"}}
    db.dispose()
