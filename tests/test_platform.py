"""The composition root: the run modes the platform offers are the ones it configured."""

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
