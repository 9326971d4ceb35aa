"""alerts: webhook targets, the outbox of events to deliver, and every delivery attempt

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import training_platform.db.types

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "alert_targets",
        sa.Column("id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("job_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True),
        sa.Column("format", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("severities", sa.JSON(), nullable=False),
        sa.Column("kinds", sa.JSON(), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("created_at", training_platform.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["job_id"], ["jobs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("alert_targets", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_alert_targets_job_id"), ["job_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_alert_targets_name"), ["name"], unique=True)
    op.create_table(
        "alert_outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("target_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("event_key", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("event", sa.JSON(), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", training_platform.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", training_platform.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("delivered_at", training_platform.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["target_id"], ["alert_targets.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("target_id", "event_key"),
    )
    with op.batch_alter_table("alert_outbox", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_alert_outbox_status"), ["status"], unique=False)
        batch_op.create_index(batch_op.f("ix_alert_outbox_target_id"), ["target_id"], unique=False)
    op.create_table(
        "alert_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("outbox_id", sa.Integer(), nullable=False),
        sa.Column("attempted_at", training_platform.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("duration_ms", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["outbox_id"], ["alert_outbox.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("alert_attempts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_alert_attempts_outbox_id"), ["outbox_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("alert_attempts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_alert_attempts_outbox_id"))
    op.drop_table("alert_attempts")
    with op.batch_alter_table("alert_outbox", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_alert_outbox_target_id"))
        batch_op.drop_index(batch_op.f("ix_alert_outbox_status"))
    op.drop_table("alert_outbox")
    with op.batch_alter_table("alert_targets", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_alert_targets_name"))
        batch_op.drop_index(batch_op.f("ix_alert_targets_job_id"))
    op.drop_table("alert_targets")
