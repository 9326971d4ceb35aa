"""Dataset persistence. A dataset's row and the files the platform keeps for it are added as one step."""

from collections.abc import Callable
from typing import Any

from sqlalchemy import delete, func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from training_platform.db import Database
from training_platform.db.lookup import get_by_name_or_id, name_taken
from training_platform.db.tables import RegisteredDataset
from training_platform.errors import ConflictError, NotFoundError


def _nothing() -> None:
    pass


class DatasetStore:
    def __init__(self, db: Database):
        self.db = db

    def add(
        self,
        dataset: RegisteredDataset,
        place_files: Callable[[], None] = _nothing,
        remove_files: Callable[[], None] = _nothing,
    ) -> RegisteredDataset:
        """Insert the row, all or nothing with its files: the row is flushed first, so a name or content taken
        meanwhile is refused before any file moves; then `place_files` runs, then the commit, and if the commit
        fails `remove_files` takes the files back out."""
        with self.db.session() as session:
            session.add(dataset)
            try:
                session.flush()
            except IntegrityError:
                # A concurrent registration took the name or the content between the service's checks and now.
                raise ConflictError(f"dataset '{dataset.name}' (or its content) was registered meanwhile") from None
            place_files()
            try:
                session.commit()
            except Exception:
                remove_files()
                raise
        return dataset

    def find(self, name_or_id: str) -> RegisteredDataset:
        return get_by_name_or_id(self.db, RegisteredDataset, name_or_id, "dataset")

    def name_taken(self, name: str) -> bool:
        with self.db.session() as session:
            return name_taken(session, RegisteredDataset, name)

    def by_content_hash(self, digest: str) -> RegisteredDataset | None:
        with self.db.session() as session:
            return session.exec(select(RegisteredDataset).where(RegisteredDataset.content_hash == digest)).first()

    def list_all(self, kind: str | None = None) -> list[RegisteredDataset]:
        query = select(RegisteredDataset).order_by(col(RegisteredDataset.name))
        if kind:
            query = query.where(RegisteredDataset.kind == kind)
        with self.db.session() as session:
            return list(session.exec(query))

    def lineage(self, lineage_id: str) -> list[RegisteredDataset]:
        """Every version descended from one root, oldest first."""
        query = (
            select(RegisteredDataset)
            .where(RegisteredDataset.lineage_id == lineage_id)
            .order_by(col(RegisteredDataset.version), col(RegisteredDataset.name))
        )
        with self.db.session() as session:
            return list(session.exec(query))

    def latest_version(self, lineage_id: str) -> int | None:
        with self.db.session() as session:
            query = select(func.max(RegisteredDataset.version)).where(RegisteredDataset.lineage_id == lineage_id)
            return session.exec(query).one()

    def update(self, dataset_id: str, **fields: Any) -> RegisteredDataset:
        with self.db.session() as session:
            session.execute(update(RegisteredDataset).where(col(RegisteredDataset.id) == dataset_id).values(**fields))
            session.commit()
            dataset = session.get(RegisteredDataset, dataset_id)
        if dataset is None:
            raise NotFoundError(f"dataset '{dataset_id}' not found")
        return dataset

    def delete(self, dataset_id: str) -> None:
        """The row; the database deletes its tasks with it and unlinks its derived versions from it."""
        with self.db.session() as session:
            result = session.execute(delete(RegisteredDataset).where(col(RegisteredDataset.id) == dataset_id))
            if result.rowcount != 1:
                raise NotFoundError(f"dataset '{dataset_id}' not found")
            session.commit()
