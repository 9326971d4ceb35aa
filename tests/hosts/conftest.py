"""A remote machine (a real sshd on loopback and a user whose home is that machine's disk) and a server that
knows it as host `remote`, shared by the SSH tests of a module: starting them costs seconds, a run there minutes."""

import base64
import secrets

import pytest

from tests.support.helpers import ServerProcess
from tests.support.sshd import RemoteMachine, start_remote_machine


def secret_key() -> str:
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()


def host_body(machine: RemoteMachine, name: str = "remote", **changes) -> dict:
    return {
        "name": name,
        "host": machine.host,
        "port": machine.port,
        "username": machine.username,
        "private_key": machine.private_key,
        "work_dir": str(machine.home / "tplat"),
        "python": machine.python,
        **changes,
    }


@pytest.fixture(scope="module")
def machine(tmp_path_factory):
    with start_remote_machine(tmp_path_factory.mktemp("remote")) as remote:
        yield remote


@pytest.fixture(scope="module")
def ssh_server(tmp_path_factory, machine):
    home = tmp_path_factory.mktemp("platform") / "home"
    home.mkdir()
    server = ServerProcess(home=home)
    server.env["PLATFORM_SECRET_KEY"] = secret_key()
    server.start()
    added = server.api.post("/hosts", json=host_body(machine))
    assert added.status_code == 201, added.text
    tested = server.api.post("/hosts/remote/test")
    assert tested.status_code == 200 and tested.json()["ok"], tested.text
    yield server
    server.shutdown()
