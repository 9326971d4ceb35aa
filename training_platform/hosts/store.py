"""Host persistence: the hosts' records and what was synced to each."""

from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from training_platform.db import Database
from training_platform.db.tables import HostFile, SshHost
from training_platform.db.types import utcnow
from training_platform.errors import ConflictError, NotFoundError


class HostStore:
    def __init__(self, db: Database):
        self.db = db

    def add(self, host: SshHost) -> SshHost:
        with self.db.session() as session:
            session.add(host)
            try:
                session.commit()
            except IntegrityError:
                raise ConflictError(f"a host named '{host.name}' exists") from None
            session.refresh(host)
            return host

    def find(self, name: str) -> SshHost | None:
        with self.db.session() as session:
            return session.exec(select(SshHost).where(SshHost.name == name)).first()

    def get(self, name: str) -> SshHost:
        if (host := self.find(name)) is None:
            raise NotFoundError(f"no host named '{name}'")
        return host

    def by_id(self, host_id: str) -> SshHost | None:
        with self.db.session() as session:
            return session.get(SshHost, host_id)

    def list_all(self) -> list[SshHost]:
        with self.db.session() as session:
            return list(session.exec(select(SshHost).order_by(col(SshHost.name))))

    def update(self, host_id: str, **changes) -> SshHost:
        with self.db.session() as session:
            host = session.get(SshHost, host_id)
            if host is None:
                raise NotFoundError(f"host {host_id} was removed")
            for key, value in changes.items():
                setattr(host, key, value)
            session.add(host)
            session.commit()
            session.refresh(host)
            return host

    def delete(self, host_id: str) -> None:
        with self.db.session() as session:
            for synced in session.exec(select(HostFile).where(HostFile.host_id == host_id)):
                session.delete(synced)
            host = session.get(SshHost, host_id)
            if host is not None:
                session.delete(host)
            session.commit()

    # ---- synced files ----------------------------------------------------------------------------------------

    def files(self, host_id: str) -> list[HostFile]:
        with self.db.session() as session:
            return list(session.exec(select(HostFile).where(HostFile.host_id == host_id)))

    def file(self, host_id: str, source_path: str) -> HostFile | None:
        with self.db.session() as session:
            query = select(HostFile).where(HostFile.host_id == host_id, HostFile.source_path == source_path)
            return session.exec(query).first()

    def put_file(self, host_id: str, source_path: str, **values) -> HostFile:
        """The file's row with `values`, made if it is the first sync of that path to that host."""
        with self.db.session() as session:
            query = select(HostFile).where(HostFile.host_id == host_id, HostFile.source_path == source_path)
            row = session.exec(query).first() or HostFile(host_id=host_id, source_path=source_path, signature="")
            for key, value in {**values, "updated_at": utcnow()}.items():
                setattr(row, key, value)
            session.add(row)
            try:
                session.commit()
            except IntegrityError:  # a concurrent first sync of the same path: its row is the one
                session.rollback()
                return self.put_file(host_id, source_path, **values)
            session.refresh(row)
            return row

    def interrupted(self) -> list[HostFile]:
        """Copies that were going when the last server stopped."""
        with self.db.session() as session:
            return list(session.exec(select(HostFile).where(HostFile.state == "syncing")))
