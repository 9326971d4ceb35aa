"""ssh hosts: remote machines that run jobs (credentials in the secrets store), files synced to them, and run
modes long enough for ssh:<host name>

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import training_platform.db.types

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ssh_hosts",
        sa.Column("id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("host", sqlmodel.sql.sqltypes.AutoString(length=255), nullable=False),
        sa.Column("port", sa.Integer(), nullable=False),
        sa.Column("username", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("auth", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("work_dir", sa.Text(), nullable=False),
        sa.Column("python", sa.Text(), nullable=False),
        sa.Column("environment", sa.JSON(), nullable=False),
        sa.Column("host_key", sa.Text(), nullable=True),
        sa.Column("report", sa.JSON(), nullable=True),
        sa.Column("gpus", sa.JSON(), nullable=False),
        sa.Column("cpus", sa.Integer(), nullable=True),
        sa.Column("tested_at", training_platform.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("created_at", training_platform.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("created_by", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("ssh_hosts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ssh_hosts_name"), ["name"], unique=True)
    op.create_table(
        "host_files",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("host_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("source_path", sa.Text(), nullable=False),
        sa.Column("signature", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("content_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("remote_path", sa.Text(), nullable=True),
        sa.Column("state", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("bytes_done", sa.BigInteger(), nullable=False),
        sa.Column("bytes_total", sa.BigInteger(), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("updated_at", training_platform.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["host_id"], ["ssh_hosts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("host_id", "source_path"),
    )
    with op.batch_alter_table("host_files", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_host_files_host_id"), ["host_id"], unique=False)
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.alter_column(
            "run_mode",
            existing_type=sqlmodel.sql.sqltypes.AutoString(length=16),
            type_=sqlmodel.sql.sqltypes.AutoString(length=80),
            existing_nullable=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.alter_column(
            "run_mode",
            existing_type=sqlmodel.sql.sqltypes.AutoString(length=80),
            type_=sqlmodel.sql.sqltypes.AutoString(length=16),
            existing_nullable=False,
        )
    with op.batch_alter_table("host_files", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_host_files_host_id"))
    op.drop_table("host_files")
    with op.batch_alter_table("ssh_hosts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ssh_hosts_name"))
    op.drop_table("ssh_hosts")
