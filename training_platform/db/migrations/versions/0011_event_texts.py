"""event texts: a job event's text as a code and parameters beside its English (common/text.py)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("job_events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("code", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))
        batch_op.add_column(sa.Column("params", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("job_events", schema=None) as batch_op:
        batch_op.drop_column("params")
        batch_op.drop_column("code")
