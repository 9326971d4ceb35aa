"""secrets: named credentials (API keys), stored only as Fernet tokens made with PLATFORM_SECRET_KEY

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import training_platform.db.types

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "secrets",
        sa.Column("id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=128), nullable=False),
        sa.Column("ciphertext", sa.Text(), nullable=False),
        sa.Column("created_at", training_platform.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", training_platform.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("created_by", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("secrets", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_secrets_name"), ["name"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("secrets", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_secrets_name"))
    op.drop_table("secrets")
