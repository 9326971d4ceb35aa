"""training health: findings, a job's health state and its health settings

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import training_platform.db.types

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("health_settings", sa.JSON(), server_default="{}", nullable=False))
        batch_op.add_column(
            sa.Column("health", sqlmodel.sql.sqltypes.AutoString(length=16), server_default="healthy", nullable=False)
        )
    op.create_table(
        "findings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("job_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("rule", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("severity", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("first_step", sa.BigInteger(), nullable=False),
        sa.Column("last_step", sa.BigInteger(), nullable=False),
        sa.Column("best_step", sa.BigInteger(), nullable=True),
        sa.Column("evidence", sa.JSON(), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("actions", sa.JSON(), server_default="[]", nullable=False),
        sa.Column("created_at", training_platform.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", training_platform.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["job_id"], ["jobs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("job_id", "kind", "rule"),
    )
    with op.batch_alter_table("findings", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_findings_job_id"), ["job_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("findings", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_findings_job_id"))
    op.drop_table("findings")
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.drop_column("health")
        batch_op.drop_column("health_settings")
