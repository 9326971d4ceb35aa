"""run reference

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("run_ref", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))
    # Jobs started before this revision ran locally: their reference is their pid.
    op.execute("UPDATE jobs SET run_ref = CAST(pid AS VARCHAR(64)) WHERE pid IS NOT NULL")


def downgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.drop_column("run_ref")
