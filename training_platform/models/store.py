"""Registered model persistence."""

from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from training_platform.db import Database
from training_platform.db.lookup import get_by_name_or_id, name_taken
from training_platform.db.tables import RegisteredModel
from training_platform.errors import ConflictError


class ModelStore:
    def __init__(self, db: Database):
        self.db = db

    def add(self, model: RegisteredModel) -> RegisteredModel:
        with self.db.session() as session:
            session.add(model)
            try:
                session.commit()
            except IntegrityError:
                # A concurrent registration took the name between the service's check and now.
                raise ConflictError(f"model '{model.name}' was registered meanwhile") from None
            return model

    def find(self, name_or_id: str) -> RegisteredModel:
        return get_by_name_or_id(self.db, RegisteredModel, name_or_id, "model")

    def name_taken(self, name: str) -> bool:
        with self.db.session() as session:
            return name_taken(session, RegisteredModel, name)

    def result_of(self, job_id: str) -> RegisteredModel | None:
        """The model a job's run registered, if any."""
        with self.db.session() as session:
            return session.exec(select(RegisteredModel).where(RegisteredModel.job_id == job_id)).first()

    def list_all(self) -> list[RegisteredModel]:
        with self.db.session() as session:
            return list(session.exec(select(RegisteredModel).order_by(col(RegisteredModel.name))))
