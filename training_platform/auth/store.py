"""Persistence of users, tokens, resource owners and the audit log."""

from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, or_, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from training_platform.auth.schemas import AuditQuery, Role, TokenKind
from training_platform.db import Database
from training_platform.db.tables import ApiToken, AuditEntry, ResourceOwner, User
from training_platform.db.types import utcnow
from training_platform.errors import ConflictError, NotFoundError


class AuthStore:
    def __init__(self, db: Database):
        self.db = db

    # ---- users ---------------------------------------------------------------------------------------------------

    def add_user(self, user: User) -> User:
        with self.db.session() as session:
            session.add(user)
            try:
                session.commit()
            except IntegrityError:
                raise ConflictError(f"a user named '{user.name}' already exists") from None
            return user

    def find_user(self, name: str) -> User | None:
        with self.db.session() as session:
            return session.exec(select(User).where(User.name == name)).first()

    def get_user(self, name: str) -> User:
        user = self.find_user(name)
        if user is None:
            raise NotFoundError(f"no user named '{name}'")
        return user

    def list_users(self) -> list[User]:
        with self.db.session() as session:
            return list(session.exec(select(User).order_by(col(User.name))))

    def count_users(self, enabled_only: bool = False, role: Role | None = None) -> int:
        query = select(func.count()).select_from(User)
        if enabled_only:
            query = query.where(col(User.disabled).is_(False))
        if role is not None:
            query = query.where(User.role == role.value)
        with self.db.session() as session:
            return session.exec(query).one()

    def update_user(self, user_id: str, **fields: Any) -> User:
        with self.db.session() as session:
            session.execute(update(User).where(col(User.id) == user_id).values(updated_at=utcnow(), **fields))
            session.commit()
            return session.get(User, user_id, populate_existing=True)

    # ---- tokens and sessions -------------------------------------------------------------------------------------

    def add_token(self, token: ApiToken) -> ApiToken:
        with self.db.session() as session:
            session.add(token)
            session.commit()
            return token

    def find_token(self, token_hash: str) -> tuple[ApiToken, User] | None:
        with self.db.session() as session:
            query = select(ApiToken, User).join(User, col(User.id) == col(ApiToken.user_id))
            row = session.exec(query.where(ApiToken.token_hash == token_hash)).first()
        return tuple(row) if row else None

    def touch_token(self, token_id: str, when: datetime) -> None:
        with self.db.session() as session:
            session.execute(update(ApiToken).where(col(ApiToken.id) == token_id).values(last_used_at=when))
            session.commit()

    def get_token(self, token_id: str) -> tuple[ApiToken, User] | None:
        with self.db.session() as session:
            query = select(ApiToken, User).join(User, col(User.id) == col(ApiToken.user_id))
            row = session.exec(query.where(ApiToken.id == token_id)).first()
        return tuple(row) if row else None

    def list_tokens(self, user_id: str | None = None) -> list[tuple[ApiToken, User]]:
        """Tokens and sessions that have not expired, newest first; every user's when `user_id` is None."""
        now = utcnow()
        query = (
            select(ApiToken, User)
            .join(User, col(User.id) == col(ApiToken.user_id))
            .where(or_(col(ApiToken.expires_at).is_(None), col(ApiToken.expires_at) > now))
            .order_by(col(ApiToken.created_at).desc(), col(ApiToken.id))
        )
        if user_id is not None:
            query = query.where(ApiToken.user_id == user_id)
        with self.db.session() as session:
            return [tuple(row) for row in session.exec(query)]

    def delete_token(self, token_id: str) -> bool:
        with self.db.session() as session:
            deleted = session.execute(delete(ApiToken).where(col(ApiToken.id) == token_id)).rowcount
            session.commit()
            return deleted == 1

    def delete_tokens(self, user_id: str, kind: TokenKind) -> int:
        with self.db.session() as session:
            query = delete(ApiToken).where(col(ApiToken.user_id) == user_id, col(ApiToken.kind) == kind.value)
            deleted = session.execute(query).rowcount
            session.commit()
            return deleted

    def delete_expired_tokens(self) -> int:
        with self.db.session() as session:
            query = delete(ApiToken).where(col(ApiToken.expires_at).is_not(None), col(ApiToken.expires_at) <= utcnow())
            deleted = session.execute(query).rowcount
            session.commit()
            return deleted

    # ---- resource owners -----------------------------------------------------------------------------------------

    def owner(self, kind: str, resource_id: str) -> str | None:
        with self.db.session() as session:
            row = session.get(ResourceOwner, (kind, resource_id))
        return row.owner if row else None

    def add_owner(self, kind: str, resource_id: str, owner: str) -> bool:
        """Record the owner unless the resource has one already (a create answered twice keeps the first)."""
        with self.db.session() as session:
            if session.get(ResourceOwner, (kind, resource_id)) is not None:
                return False
            session.add(ResourceOwner(kind=kind, resource_id=resource_id, owner=owner))
            try:
                session.commit()
            except IntegrityError:
                return False
            return True

    def remove_owner(self, kind: str, resource_id: str) -> None:
        with self.db.session() as session:
            owned = col(ResourceOwner.kind) == kind, col(ResourceOwner.resource_id) == resource_id
            session.execute(delete(ResourceOwner).where(*owned))
            session.commit()

    # ---- audit log -----------------------------------------------------------------------------------------------

    def add_audit(self, entry: AuditEntry) -> None:
        with self.db.session() as session:
            session.add(entry)
            session.commit()

    def audit_entries(self, query: AuditQuery) -> list[AuditEntry]:
        statement = select(AuditEntry).order_by(col(AuditEntry.id).desc()).offset(query.offset).limit(query.limit)
        if query.actor:
            statement = statement.where(AuditEntry.actor == query.actor)
        if query.resource_kind:
            statement = statement.where(AuditEntry.resource_kind == query.resource_kind)
        if query.resource:
            statement = statement.where(
                or_(col(AuditEntry.resource_id) == query.resource, col(AuditEntry.resource_name) == query.resource)
            )
        if query.action:
            statement = statement.where(AuditEntry.action == query.action)
        with self.db.session() as session:
            return list(session.exec(statement))
