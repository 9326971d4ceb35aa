"""Secret persistence: rows of names and Fernet tokens; the store never sees a value in clear."""

from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from training_platform.db import Database
from training_platform.db.tables import Secret
from training_platform.db.types import utcnow
from training_platform.errors import ConflictError


class SecretStore:
    def __init__(self, db: Database):
        self.db = db

    def put(self, secret: Secret) -> Secret:
        """`secret` as a new row, or its token written over the row of the same name."""
        with self.db.session() as session:
            row = session.exec(select(Secret).where(Secret.name == secret.name)).first()
            if row is None:
                row = secret
            else:
                row.ciphertext, row.updated_at = secret.ciphertext, utcnow()
            session.add(row)
            try:
                session.commit()
            except IntegrityError:
                # A concurrent request stored the same name between the lookup and now.
                raise ConflictError(f"secret '{secret.name}' was stored meanwhile: send it again") from None
            session.refresh(row)
            return row

    def get(self, name: str) -> Secret | None:
        with self.db.session() as session:
            return session.exec(select(Secret).where(Secret.name == name)).first()

    def list_all(self) -> list[Secret]:
        with self.db.session() as session:
            return list(session.exec(select(Secret).order_by(col(Secret.name))))

    def delete(self, name: str) -> Secret | None:
        """The deleted row, or None when no secret has that name."""
        with self.db.session() as session:
            row = session.exec(select(Secret).where(Secret.name == name)).first()
            if row is not None:
                session.delete(row)
                session.commit()
            return row
