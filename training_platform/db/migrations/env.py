"""Alembic environment: runs on a connection given by Database.upgrade, or from the URL in settings."""

from alembic import context
from sqlalchemy import create_engine
from sqlmodel import SQLModel

from training_platform.db import tables  # noqa: F401  (registers the tables on SQLModel.metadata)

config = context.config
target_metadata = SQLModel.metadata


def _configure_and_run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite cannot ALTER most things in place; batch mode rebuilds the table.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    if url:
        return url
    from training_platform.settings import get_settings

    return get_settings().database_url


connection = config.attributes.get("connection")
if context.is_offline_mode():
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
elif connection is not None:
    _configure_and_run(connection)
else:
    engine = create_engine(_url())
    with engine.begin() as own_connection:
        _configure_and_run(own_connection)
    engine.dispose()
