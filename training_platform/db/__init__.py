"""Persistence: SQLModel tables, the engine/session factory and Alembic migrations."""

from training_platform.db.database import Database

__all__ = ["Database"]
