"""Lookups shared by every table that has both an id and a unique name."""

from typing import TypeVar

from sqlmodel import Session, SQLModel, select

from training_platform.db import Database
from training_platform.errors import NotFoundError

Row = TypeVar("Row", bound=SQLModel)


def name_taken(session: Session, table: type[Row], name: str) -> bool:
    return session.exec(select(table.id).where(table.name == name)).first() is not None


def get_by_name_or_id(db: Database, table: type[Row], name_or_id: str, what: str) -> Row:
    with db.session() as session:
        row = session.get(table, name_or_id) or session.exec(select(table).where(table.name == name_or_id)).first()
    if row is None:
        raise NotFoundError(f"no {what} with id or name '{name_or_id}'")
    return row
