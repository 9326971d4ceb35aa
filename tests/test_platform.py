"""The composition root: the run modes the platform offers are the ones it configured."""

import stat
from pathlib import Path

import pytest

from training_platform.platform import Platform
from training_platform.settings import Settings


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_run_modes_are_the_configured_ones(tmp_path, database_url):
    local = Platform.open(Settings(home=tmp_path / "local", database_url=database_url))
    assert local.run_modes == ["local"]
    local.close()
    # A Ray address is all run mode ray needs at start (the cluster is asked when a job runs there).
    with_ray = Platform.open(Settings(home=tmp_path / "ray", database_url=database_url, ray_address="http://x:8265"))
    assert with_ray.run_modes == ["local", "ray"]
    with_ray.close()


def test_system_and_engines_say_what_this_server_offers(server):
    system = server.api.get("/system").json()
    assert system["run_modes"] == ["local"] and system["engines"] == ["trl", "verl"]
    engines = {engine["name"]: engine for engine in server.api.get("/engines").json()}
    assert engines["trl"]["max_devices"] is None and "ppo" not in engines["trl"]["algorithms"]
    assert engines["verl"]["max_devices"] is None and "dpo" not in engines["verl"]["algorithms"]
    assert set(engines["trl"]["runnable_here"]) == {"sft", "dpo", "grpo", "gspo"}


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_home_and_its_database_are_the_owners_alone(tmp_path):
    settings = Settings(home=tmp_path / "home")
    assert not settings.home.exists()
    platform = Platform.open(settings)
    try:
        database = settings.home / "platform.db"
        assert mode(settings.home) == 0o700
        assert mode(database) == 0o600
        companions = [database.with_name(database.name + suffix) for suffix in ("-wal", "-shm")]
        assert [mode(path) for path in companions if path.exists()] == [0o600] * len(companions), companions
    finally:
        platform.close()


def test_a_home_readable_by_others_is_tightened_at_start(tmp_path):
    """A home made by hand (0755), with its folders and an older database readable by every local user."""
    settings = Settings(home=tmp_path / "home")
    Platform.open(settings).close()
    database = settings.home / "platform.db"
    loose = [settings.home, settings.jobs_dir, settings.datasets_dir]
    for folder in loose[1:]:
        folder.mkdir(exist_ok=True)
    for path in loose:
        path.chmod(0o755)
    for path in (database, database.with_name("platform.db-wal")):
        path.touch()
        path.chmod(0o644)
    platform = Platform.open(settings)
    try:
        assert [mode(path) for path in loose] == [0o700] * len(loose)
        assert mode(database) == 0o600 and mode(database.with_name("platform.db-wal")) == 0o600
    finally:
        platform.close()
