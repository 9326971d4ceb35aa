"""Engine, sessions and schema upgrades for SQLite (embedded default) and PostgreSQL."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlmodel import Session

from training_platform.common.files import create_private_file, make_private

# Besides the database, SQLite keeps its write-ahead log and the log's index next to it, with the database's mode.
SQLITE_COMPANIONS = ("-wal", "-shm")
MIGRATIONS_DIR = Path(__file__).parent / "migrations"


def alembic_config(database_url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    # ConfigParser interpolation treats % specially (URL-encoded passwords contain it).
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


def _make_engine(database_url: str) -> Engine:
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    if url.database and url.database != ":memory:":
        _private_sqlite_files(Path(url.database))
    # API threads and job watchers write concurrently: WAL and a busy timeout, not "database is locked".
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection, _record):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    return engine


def _private_sqlite_files(path: Path) -> None:
    """The database readable by its owner alone, whoever else can reach its folder: created 0600 before SQLite
    opens it (which would make it 0644 and its companions the same), tightened when an older one is looser."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    create_private_file(path)
    for suffix in SQLITE_COMPANIONS:
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            make_private(companion)


class Database:
    def __init__(self, database_url: str):
        self.url = database_url
        self.engine = _make_engine(database_url)

    def upgrade(self) -> None:
        """Bring the schema to the newest revision (`alembic upgrade head`)."""
        config = alembic_config(self.url)
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    @contextmanager
    def session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session:
            yield session

    def dispose(self) -> None:
        self.engine.dispose()
