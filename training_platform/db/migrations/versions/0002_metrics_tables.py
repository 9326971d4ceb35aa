"""metrics tables

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import training_platform.db.types

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "metric_anomalies",
        sa.Column("job_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("step", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(length=64), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["job_id"], ["jobs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("job_id", "step", "kind"),
    )
    op.create_table(
        "metric_cursors",
        sa.Column("job_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("offset", sa.BigInteger(), nullable=False),
        sa.Column("line_number", sa.BigInteger(), nullable=False),
        sa.Column("fingerprint", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("fingerprint_length", sa.Integer(), nullable=False),
        sa.Column("malformed_lines", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", training_platform.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["job_id"], ["jobs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("job_id", "source"),
    )
    op.create_table(
        "metric_series",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("job_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(length=255), nullable=False),
        sa.ForeignKeyConstraint(["job_id"], ["jobs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("job_id", "key"),
    )
    op.create_table(
        "metric_points",
        sa.Column("series_id", sa.Integer(), nullable=False),
        sa.Column("step", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("value", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["series_id"], ["metric_series.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("series_id", "step"),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "metric_rollups",
        sa.Column("series_id", sa.Integer(), nullable=False),
        sa.Column("bucket", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("first_step", sa.BigInteger(), nullable=False),
        sa.Column("first_value", sa.Float(), nullable=True),
        sa.Column("last_step", sa.BigInteger(), nullable=False),
        sa.Column("last_value", sa.Float(), nullable=True),
        sa.Column("min_step", sa.BigInteger(), nullable=True),
        sa.Column("min_value", sa.Float(), nullable=True),
        sa.Column("max_step", sa.BigInteger(), nullable=True),
        sa.Column("max_value", sa.Float(), nullable=True),
        sa.Column("nan_step", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["series_id"], ["metric_series.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("series_id", "bucket"),
        sqlite_with_rowid=False,
    )


def downgrade() -> None:
    op.drop_table("metric_rollups")
    op.drop_table("metric_points")
    op.drop_table("metric_series")
    op.drop_table("metric_cursors")
    op.drop_table("metric_anomalies")
