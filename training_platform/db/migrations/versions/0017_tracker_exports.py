"""tracker exports: a job's trackers, and each export's cursor, run and retry state

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import training_platform.db.types

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_time = training_platform.db.types.UTCDateTime(timezone=True)


def _string(length: int) -> sqlmodel.sql.sqltypes.AutoString:
    return sqlmodel.sql.sqltypes.AutoString(length=length)


def upgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("trackers", sa.JSON(), nullable=True))
    op.create_table(
        "tracker_exports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("job_id", _string(32), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("kind", _string(16), nullable=False),
        sa.Column("spec", sa.JSON(), nullable=False),
        sa.Column("status", _string(16), nullable=False),
        sa.Column("exported_step", sa.BigInteger(), nullable=True),
        sa.Column("run_ref", _string(200), nullable=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", _time, nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", _time, nullable=False),
        sa.Column("updated_at", _time, nullable=False),
        sa.ForeignKeyConstraint(["job_id"], ["jobs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("job_id", "position"),
    )
    with op.batch_alter_table("tracker_exports", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tracker_exports_job_id"), ["job_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_tracker_exports_status"), ["status"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("tracker_exports", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tracker_exports_status"))
        batch_op.drop_index(batch_op.f("ix_tracker_exports_job_id"))
    op.drop_table("tracker_exports")
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.drop_column("trackers")
