"""The canary: the overrides that ran code and read secrets on a real server (issue 14) are refused by name, and
nothing of them happened."""

import os
import shlex

import pytest

from tests.engines.test_verl_validate import GRPO, PPO, rooted
from tests.support.helpers import ServerProcess

SECRET = "canary-secret-value-7f3a9c"
PPO_HEAD = ["python3", "-m", "verl.trainer.main_ppo"]


@pytest.fixture(scope="module")
def canary(tmp_path_factory):
    root = tmp_path_factory.mktemp("canary")
    # A config file outside verl's configs whose `_target_` verl would instantiate, were Hydra led to it.
    (root / "evil.yaml").write_text(f"_target_: os.makedirs\nname: {root / 'made_by_yaml'}\n")
    return root


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    process = ServerProcess(home=tmp_path_factory.mktemp("server_home"))
    process.env["PLATFORM_CANARY_SECRET"] = SECRET
    process.start()
    yield process
    process.shutdown()


def exploits(canary) -> list[tuple[list[str] | str, str]]:
    """(command, the key the refusal names)."""
    import verl

    config_group = os.path.join(os.path.dirname(verl.__file__), "trainer", "config", "model_engine")
    traversal = os.path.relpath(canary / "evil", config_group)
    made = canary / "made_by_override"
    target = ["+checkpoint.x._target_=os.makedirs", f"+checkpoint.x.name={made}"]
    return [
        ([*PPO_HEAD, *target], "checkpoint.x._target_"),
        (shlex.join([*PPO_HEAD, *target]), "checkpoint.x._target_"),
        ([*GRPO, "+x=${oc.env:PLATFORM_CANARY_SECRET}"], "x"),
        ([*GRPO, "trainer.project_name=${oc.env:PLATFORM_CANARY_SECRET}"], "trainer.project_name"),
        ([*GRPO, "trainer.project_name='${oc.env:PLATFORM_ADMIN_TOKEN}'"], "trainer.project_name"),
        ([*GRPO, "trainer.project_name=\\${oc.env:PLATFORM_CANARY_SECRET}"], "trainer.project_name"),
        (
            [*GRPO, f"actor_rollout_ref.actor.checkpoint={{_target_:os.makedirs,name:{made}}}"],
            "actor_rollout_ref.actor.checkpoint",
        ),
        ([*GRPO, f"model_engine={traversal}"], "model_engine"),
        ([*GRPO, "hydra.searchpath=[pkg://os]"], "hydra.searchpath"),
        ([*GRPO, "~trainer.logger"], "trainer.logger"),
        # verl fetches hdfs:// paths with a shell command while it builds the critic's model config.
        ([*PPO, f"critic.model.path='hdfs://x;touch {canary / 'made_by_shell'};'"], "critic.model.path"),
        ([*GRPO, "actor_rollout_ref.model.external_lib=antigravity"], "actor_rollout_ref.model.external_lib"),
        # Let through by the server's reading of the text, refused by Hydra's parser in the validation process.
        ([*GRPO, "model_engine=nope"], "model_engine"),
    ]


def test_overrides_that_would_run_code_or_read_secrets_are_refused_by_name(server, canary):
    for command, key in exploits(canary):
        if isinstance(command, list):
            command = rooted(command, server.home.parent)
        response = server.api.post("/engines/verl/validate", json={"command": command})
        assert response.status_code == 422, (command, response.text)
        body = response.json()
        assert [error["field"] for error in body["errors"]] == ["command"] * len(body["errors"])
        assert any(f"'{key}'" in error["message"] for error in body["errors"]), (key, body)
        assert SECRET not in response.text and server.admin_token not in response.text
    assert sorted(path.name for path in canary.iterdir()) == ["evil.yaml"]  # no directory made
    # The server is still up, and still validates what is only configuration.
    valid = server.api.post("/engines/verl/validate", json={"command": rooted(GRPO, server.home.parent)})
    assert valid.status_code == 200 and valid.json() == {"valid": True, "problems": []}
    assert SECRET not in server.log_text()


def test_a_command_that_is_not_even_shell_words_is_a_422(server):
    response = server.api.post("/engines/verl/validate", json={"command": "python -m verl.trainer.main_ppo 'a=b"})
    assert response.status_code == 422 and response.json()["errors"][0]["field"] == "command"
