"""Shared fixtures: the demo assets built once, databases on SQLite and PostgreSQL, a real server; and how the
suite is shared between pytest-xdist's workers (`make test` runs two, one per core)."""

import os
import uuid
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from tests.alerts.support import LOOPBACK
from tests.support.helpers import ServerProcess

os.environ.setdefault("HF_HUB_OFFLINE", "1")
# Tests that run clusters (Ray, verl with vLLM) use every core and several GiB each: they run one after another on
# one worker, and first, since they are the longest unit of work; the other worker takes the other files meanwhile.
CLUSTER_FILES = ("tests/api/test_verl_rl_e2e.py", "tests/api/test_ray_e2e.py", "tests/runners/test_ray_nodes.py")
POSTGRES_URL = os.environ.get("PLATFORM_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


@pytest.fixture(scope="session")
def demo_assets(tmp_path_factory) -> dict[str, Path]:
    """The demo model and datasets, built once per test session exactly as `tplat demo` builds them."""
    from training_platform.demo.assets import build_datasets, build_model, build_reward_model, build_tokenizer

    root = tmp_path_factory.mktemp("demo")
    model_dir = root / "model"
    tokenizer = build_tokenizer(model_dir)
    build_model(model_dir, tokenizer)
    build_reward_model(root / "reward_model", model_dir)
    assets = {"model": model_dir, "reward_model": root / "reward_model"}
    for dataset in build_datasets(root / "data"):
        assets[dataset.kind] = dataset.path
    return assets


def _libpq_url(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture
def postgres_url():
    """A fresh, empty PostgreSQL database on the server at 127.0.0.1:5432, dropped afterwards."""
    name = f"tplat_test_{uuid.uuid4().hex[:12]}"
    admin = _libpq_url(POSTGRES_URL)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    yield make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """Each database test runs twice: on an SQLite file and on a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'platform.db'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def db(database_url):
    """An empty, migrated database (SQLite and PostgreSQL), for tests that wire stores by hand."""
    from training_platform.db import Database

    database = Database(database_url)
    database.upgrade()
    yield database
    database.dispose()


@pytest.fixture
def settings(tmp_path, tmp_path_factory, database_url):
    from training_platform.settings import Settings

    return Settings(
        home=tmp_path / "home",
        database_url=database_url,
        stop_grace_seconds=3,
        embedding_cpu_threads=1,
        # Models and datasets are read by path only from under the data roots: the tests' files are all under
        # pytest's base directory (demo_assets, tmp_path).
        data_roots=[str(tmp_path_factory.getbasetemp())],
    )


@pytest.fixture
def platform(settings):
    from training_platform.platform import Platform

    opened = Platform.open(settings)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real `tplat serve` on a free loopback port with its own home and SQLite database."""
    process = ServerProcess(home=tmp_path_factory.mktemp("server_home"))
    process.env["PLATFORM_ALERT_ALLOWED_NETWORKS"] = LOOPBACK  # the webhook receivers of tests/alerts/support.py
    process.start()
    yield process
    process.shutdown()


def pytest_collection_modifyitems(config, items):
    """The cluster files first (`--no-loadscope-reorder` keeps the collection's order): the longest unit of work
    starts at once, and the other worker takes the other files meanwhile."""
    items.sort(key=lambda item: _file_of(item.nodeid) not in CLUSTER_FILES)  # stable: files keep their order


def pytest_xdist_make_scheduler(config, log):
    """Under `--dist loadfile`, a file is one unit of work (its module-scoped server starts once), and the cluster
    files are one unit together. (xdist's `loadgroup` marks cannot do it with pytest 9, whose node ids no longer
    take the group suffix xdist appends.)"""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class ClusterFilesTogether(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "cluster" if _file_of(nodeid) in CLUSTER_FILES else super()._split_scope(nodeid)

    return ClusterFilesTogether(config, log)


def _file_of(nodeid: str) -> str:
    return nodeid.split("::")[0]
