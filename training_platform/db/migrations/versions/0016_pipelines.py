"""pipelines: DAGs of stages with their definitions, and each stage's status, lease, work and outputs

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import training_platform.db.types

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_time = training_platform.db.types.UTCDateTime(timezone=True)


def _string(length: int) -> sqlmodel.sql.sqltypes.AutoString:
    return sqlmodel.sql.sqltypes.AutoString(length=length)


def upgrade() -> None:
    op.create_table(
        "pipelines",
        sa.Column("id", _string(32), nullable=False),
        sa.Column("name", _string(200), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("status", _string(16), nullable=False),
        sa.Column("definition", sa.JSON(), nullable=False),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("concurrency", sa.Integer(), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("owner", _string(64), nullable=True),
        sa.Column("created_at", _time, nullable=False),
        sa.Column("started_at", _time, nullable=True),
        sa.Column("finished_at", _time, nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("pipelines", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_pipelines_name"), ["name"], unique=True)
        batch_op.create_index(batch_op.f("ix_pipelines_status"), ["status"], unique=False)
    op.create_table(
        "pipeline_stages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("pipeline_id", _string(32), nullable=False),
        sa.Column("name", _string(64), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("layer", sa.Integer(), nullable=False),
        sa.Column("spec", sa.JSON(), nullable=False),
        sa.Column("status", _string(16), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("attempts_base", sa.Integer(), nullable=False),
        sa.Column("task_id", _string(64), nullable=True),
        sa.Column("worker", _string(200), nullable=True),
        sa.Column("lease_expires_at", _time, nullable=True),
        sa.Column("not_before", _time, nullable=True),
        sa.Column("work_kind", _string(16), nullable=True),
        sa.Column("work_id", _string(64), nullable=True),
        sa.Column("work_name", _string(200), nullable=True),
        sa.Column("outputs", sa.JSON(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("done_spec", _string(64), nullable=True),
        sa.Column("dispatched_at", _time, nullable=True),
        sa.Column("started_at", _time, nullable=True),
        sa.Column("finished_at", _time, nullable=True),
        sa.ForeignKeyConstraint(["pipeline_id"], ["pipelines.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("pipeline_id", "name"),
    )
    with op.batch_alter_table("pipeline_stages", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_pipeline_stages_pipeline_id"), ["pipeline_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("pipeline_stages", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_pipeline_stages_pipeline_id"))
    op.drop_table("pipeline_stages")
    with op.batch_alter_table("pipelines", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_pipelines_status"))
        batch_op.drop_index(batch_op.f("ix_pipelines_name"))
    op.drop_table("pipelines")
