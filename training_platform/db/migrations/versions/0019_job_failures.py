"""job failures: why a job failed, how long its attempts ran, its last progress across a resume

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("failure", sa.JSON(), nullable=True))
        # No default: the jobs already there ran attempts nobody timed (None), a new job starts at 0.
        batch_op.add_column(sa.Column("run_seconds", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("last_progress", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.drop_column("last_progress")
        batch_op.drop_column("run_seconds")
        batch_op.drop_column("failure")
