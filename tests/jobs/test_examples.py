"""The example job files (examples/): one per algorithm and engine that runs it, each a valid job on the demo assets
as `tplat demo` registers them, previewed by a server and created by `tplat jobs create -f` as it is (the engine's own
checks, verl's offline validation of the whole command included); and each trained by the tests: the end-to-end
tests train with the examples' params (tests/support/jobs.py example_params): trl-sft, trl-dpo and trl-grpo in
tests/api/test_training_e2e.py, verl-sft in tests/api/test_verl_e2e.py, verl-grpo and verl-ppo in
tests/api/test_verl_rl_e2e.py; trl-gspo is trained here, from its file as it is."""

from pathlib import Path

import pytest
import yaml

from tests.support.helpers import ServerProcess
from tests.support.jobs import EXAMPLES

FILES = sorted(EXAMPLES.glob("*.yaml"))
# verl's RL examples need a rollout engine: the CPU build of vLLM in the RL environment (`make rl-env`).
RL_PYTHON = Path(".venv-rl/bin/python").absolute()


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory):
    """A server whose verl runs in the RL environment, with the demo assets registered."""
    if not RL_PYTHON.exists():
        pytest.fail(f"the CPU RL environment is missing ({RL_PYTHON}): build it with `make rl-env`")
    server = ServerProcess(home=tmp_path_factory.mktemp("examples_home"))
    server.env["PLATFORM_VERL_PYTHON"] = str(RL_PYTHON)
    server.start()
    try:
        response = server.api.post("/demo")
        assert response.status_code == 200, response.text
        yield server
    finally:
        server.shutdown()


def test_there_is_an_example_for_each_algorithm_of_each_engine(demo_server):
    expected = {
        f"{engine['name']}-{algorithm}"
        for engine in demo_server.api.get("/engines").json()
        for algorithm in engine["algorithms"]
    }
    assert {path.stem for path in FILES} == expected


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_each_example_is_a_job_the_server_would_run(demo_server, path):
    document = yaml.safe_load(path.read_text())
    assert document["name"] == path.stem
    response = demo_server.api.post("/jobs/spec/preview", json={"text": path.read_text()})
    assert response.status_code == 200, response.text
    preview = response.json()
    assert preview["engine"] == document["engine"]
    assert str(document["params"]["learning_rate"]) in yaml.safe_dump(preview["configuration"])
    created = demo_server.cli("jobs", "create", "-f", str(path))
    assert created.returncode == 0, created.stderr + created.stdout
    assert demo_server.job(path.stem)["status"] == "pending"


def test_the_gspo_example_trains_from_its_file(demo_server):
    path = EXAMPLES / "trl-gspo.yaml"
    created = demo_server.cli("jobs", "create", "-f", str(path), "--name", "trl-gspo-trained", "--start")
    assert created.returncode == 0, created.stderr + created.stdout
    job = demo_server.wait_for_status("trl-gspo-trained", "completed", "failed")
    assert job["status"] == "completed", job["error"]
    assert job["progress"]["current_step"] == yaml.safe_load(path.read_text())["params"]["max_steps"]
