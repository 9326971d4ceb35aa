"""The SSH test machine itself (tests/support/sshd.py): every way of logging in works, `home` is the user's $HOME,
the platform imports with `python` over SSH, cut connections break while new ones succeed, and close() leaves
neither processes nor the user behind."""

import asyncio
import shlex
import subprocess

import asyncssh
import pytest

from tests.support.sshd import start_remote_machine


@pytest.fixture
def machine(tmp_path):
    with start_remote_machine(tmp_path) as machine:
        yield machine


def test_key_passphrase_key_and_password_log_in_and_the_platform_imports_there(machine):
    async def check() -> None:
        passphrase_key = asyncssh.import_private_key(machine.passphrase_key, machine.passphrase)
        logins = [{}, {"client_keys": [passphrase_key]}, {"client_keys": None, "password": machine.password}]
        for login in logins:
            async with machine.connect(**login) as connection:
                assert (await connection.run("echo $HOME", check=True)).stdout.strip() == str(machine.home)
        with pytest.raises(asyncssh.PermissionDenied):
            await machine.connect(client_keys=None, password=machine.password + "x")
        async with machine.connect() as connection:
            imported = await connection.run(f"{shlex.quote(machine.python)} -c 'import training_platform'")
            assert imported.exit_status == 0, imported.stderr

    asyncio.run(check())


def test_dropped_connections_break_and_new_ones_succeed(machine):
    async def check() -> None:
        async with machine.connect() as connection:
            assert (await connection.run("echo before", check=True)).stdout == "before\n"
            machine.drop_connections()
            with pytest.raises((asyncssh.Error, OSError)):
                await connection.run("echo after", check=True)
        async with machine.connect() as connection:
            assert (await connection.run("echo again", check=True)).stdout == "again\n"

    asyncio.run(check())


def test_close_kills_the_users_processes_and_removes_the_user(tmp_path):
    machine = start_remote_machine(tmp_path)
    machine.ssh_run("nohup sleep 600 >/dev/null 2>&1 &")
    assert any(cmdline and cmdline[0] == "sleep" for _, cmdline in machine.processes())
    machine.close()
    assert machine.processes() == []
    assert subprocess.run(["getent", "passwd", machine.username], capture_output=True).returncode == 2
    machine.close()  # a second close is harmless
