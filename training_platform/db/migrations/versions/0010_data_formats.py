"""data formats: a dataset's format preset, sharegpt tags, split and its folder's splits; a job's data format per file

A job's field mapping per data file (`jobs.dataset_fields`) becomes its whole data format
(`jobs.dataset_formats`, contract/data.py DataFormat): the mapping is kept under `field_mapping`.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24
"""

import json
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_JOBS = sa.table(
    "jobs", sa.column("id", sa.String), sa.column("dataset_fields", sa.JSON), sa.column("dataset_formats", sa.JSON)
)


def upgrade() -> None:
    with op.batch_alter_table("datasets", schema=None) as batch_op:
        batch_op.add_column(sa.Column("preset", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True))
        batch_op.add_column(sa.Column("tags", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("split", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True))
        batch_op.add_column(sa.Column("splits", sa.JSON(), server_default="[]", nullable=False))
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("dataset_formats", sa.JSON(), server_default="{}", nullable=False))
    connection = op.get_bind()
    for job_id, fields in connection.execute(sa.select(_JOBS.c.id, _JOBS.c.dataset_fields)).all():
        fields = json.loads(fields) if isinstance(fields, str) else fields or {}
        if fields:
            formats = {path: {"field_mapping": mapping} for path, mapping in fields.items()}
            connection.execute(_JOBS.update().where(_JOBS.c.id == job_id).values(dataset_formats=formats))
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.drop_column("dataset_fields")


def downgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("dataset_fields", sa.JSON(), server_default="{}", nullable=False))
    connection = op.get_bind()
    for job_id, formats in connection.execute(sa.select(_JOBS.c.id, _JOBS.c.dataset_formats)).all():
        formats = json.loads(formats) if isinstance(formats, str) else formats or {}
        if formats:
            fields = {path: entry.get("field_mapping", {}) for path, entry in formats.items()}
            connection.execute(_JOBS.update().where(_JOBS.c.id == job_id).values(dataset_fields=fields))
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.drop_column("dataset_formats")
    with op.batch_alter_table("datasets", schema=None) as batch_op:
        batch_op.drop_column("splits")
        batch_op.drop_column("split")
        batch_op.drop_column("tags")
        batch_op.drop_column("preset")
