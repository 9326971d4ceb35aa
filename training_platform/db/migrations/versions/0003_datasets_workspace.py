"""datasets workspace: content hash, field configuration, versions, background tasks

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import training_platform.db.types

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "dataset_tasks",
        sa.Column("id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("dataset_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("progress", sa.Float(), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", training_platform.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("started_at", training_platform.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("finished_at", training_platform.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["dataset_id"], ["datasets.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("dataset_tasks", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_dataset_tasks_dataset_id"), ["dataset_id"], unique=False)

    with op.batch_alter_table("datasets", schema=None) as batch_op:
        batch_op.add_column(sa.Column("content_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))
        batch_op.add_column(
            sa.Column("source", sqlmodel.sql.sqltypes.AutoString(length=16), server_default="path", nullable=False)
        )
        batch_op.add_column(sa.Column("original_filename", sqlmodel.sql.sqltypes.AutoString(length=255), nullable=True))
        batch_op.add_column(sa.Column("num_invalid", sa.BigInteger(), server_default="0", nullable=False))
        batch_op.add_column(sa.Column("columns", sa.JSON(), server_default="[]", nullable=False))
        batch_op.add_column(sa.Column("field_mapping", sa.JSON(), server_default="{}", nullable=False))
        batch_op.add_column(sa.Column("label_fields", sa.JSON(), server_default="[]", nullable=False))
        batch_op.add_column(sa.Column("parent_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True))
        batch_op.add_column(sa.Column("lineage_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True))
        batch_op.add_column(sa.Column("version", sa.Integer(), server_default="1", nullable=False))
        batch_op.add_column(sa.Column("derivation", sa.Text(), server_default="", nullable=False))
        batch_op.create_index(batch_op.f("ix_datasets_content_hash"), ["content_hash"], unique=True)
        batch_op.create_index(batch_op.f("ix_datasets_lineage_id"), ["lineage_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_datasets_parent_id"), ["parent_id"], unique=False)
        batch_op.create_foreign_key("fk_datasets_parent_id", "datasets", ["parent_id"], ["id"], ondelete="SET NULL")
    # Datasets registered before versions existed are each the root of their own lineage. Their content hash
    # stays empty: hashing could mean reading large files that may have moved since.
    op.execute("UPDATE datasets SET lineage_id = id")

    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("dataset_fields", sa.JSON(), server_default="{}", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.drop_column("dataset_fields")

    with op.batch_alter_table("datasets", schema=None) as batch_op:
        batch_op.drop_constraint("fk_datasets_parent_id", type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_datasets_parent_id"))
        batch_op.drop_index(batch_op.f("ix_datasets_lineage_id"))
        batch_op.drop_index(batch_op.f("ix_datasets_content_hash"))
        batch_op.drop_column("derivation")
        batch_op.drop_column("version")
        batch_op.drop_column("lineage_id")
        batch_op.drop_column("parent_id")
        batch_op.drop_column("label_fields")
        batch_op.drop_column("field_mapping")
        batch_op.drop_column("columns")
        batch_op.drop_column("num_invalid")
        batch_op.drop_column("original_filename")
        batch_op.drop_column("source")
        batch_op.drop_column("content_hash")

    with op.batch_alter_table("dataset_tasks", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_dataset_tasks_dataset_id"))

    op.drop_table("dataset_tasks")
