"""What goes wrong with a host, said clearly on "test connection" and on a job's start, the job failed with the
reason (never stuck): a wrong password, no Python there, no platform package there, a changed host key, a host
that cannot be reached. And what must never happen: a credential in an answer, a log line, a job file or a
database column in clear; a word of a host's fields or a file name read by a shell on either side."""

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from tests.hosts.conftest import host_body
from tests.support.helpers import free_port, wait_until
from training_platform.runners.ssh.connection import Credentials, Endpoint, SshClient

pytestmark = pytest.mark.slow


def short_job(server, demo_assets, name: str, host: str, dataset: Path | None = None) -> dict:
    body = dict(
        name=name,
        algorithm="sft",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(dataset or demo_assets["sft"])],
        params=dict(learning_rate=1e-3, batch_size=8, micro_batch_size=8, max_steps=3, save_interval=None),
        run_mode=f"ssh:{host}",
        start=True,
    )
    return server.wait_for_status(server.create_job(**body)["id"], "completed", "failed", timeout=180)


def add_and_test(server, machine, name: str, **changes) -> dict:
    added = server.api.post("/hosts", json=host_body(machine, name, **changes))
    assert added.status_code == 201, added.text
    tested = server.api.post(f"/hosts/{name}/test")
    assert tested.status_code == 200, tested.text
    return tested.json()


@pytest.mark.parametrize(
    ("name", "changes", "message"),
    [
        ("wrong-password", dict(private_key=None, password="not-the-password"), "refused the credentials"),
        ("no-python", dict(python="/nonexistent/bin/python3"), "no Python at /nonexistent/bin/python3"),
        ("no-package", dict(python="/usr/bin/python3.11"), "package is not installed"),
    ],
)
def test_a_bad_host_is_told_on_test_and_fails_a_job_with_the_reason(
    ssh_server, machine, demo_assets, name, changes, message
):
    tested = add_and_test(ssh_server, machine, name, **changes)
    assert not tested["ok"] and message in tested["error"], tested
    if name == "no-package":  # the report says what the host has and how to install what it lacks
        assert tested["report"]["python"].startswith("3.11") and tested["report"]["package"] is None
        assert "-m pip install training-platform==" in tested["error"]
    job = short_job(ssh_server, demo_assets, f"job-on-{name}", name)
    assert job["status"] == "failed" and message in job["error"], job["error"]


def test_a_command_that_ends_before_reading_its_input_is_told_by_its_exit_status(machine):
    """A host's missing interpreter can end the command before its input is written (a race CI lost once): that
    is exit status 127, which "no Python at …" is told from, never a lost connection."""
    endpoint = Endpoint("input", machine.host, machine.port, machine.username, machine.host_public_key)
    credentials = Credentials(private_key=machine.private_key)
    client = SshClient()
    try:
        for _ in range(20):
            assert client.run(endpoint, credentials, ["/nonexistent/python3"], "{}").exit_status == 127
    finally:
        client.close()


def test_no_credential_shows_anywhere_in_clear(ssh_server, machine, demo_assets):
    assert add_and_test(ssh_server, machine, "by-password", private_key=None, password=machine.password)["ok"]
    by_passphrase = dict(private_key=machine.passphrase_key, passphrase=machine.passphrase)
    assert add_and_test(ssh_server, machine, "by-passphrase", **by_passphrase)["ok"]
    job = short_job(ssh_server, demo_assets, "job-by-password", "by-password")
    assert job["status"] == "completed", job["error"]

    secret_key = ssh_server.env["PLATFORM_SECRET_KEY"]
    key_lines = [key.splitlines()[2] for key in (machine.private_key, machine.passphrase_key)]
    canaries = [machine.password, machine.passphrase, secret_key, *key_lines]
    responses = [
        ssh_server.api.get(path)
        for path in (
            "/hosts",
            "/hosts/remote",
            "/hosts/by-password",
            "/hosts/by-passphrase",
            "/secrets",
            "/jobs",
            "/system",
            f"/jobs/{job['id']}",
            f"/jobs/{job['id']}/events",
            f"/jobs/{job['id']}/logs?stream=stdout&lines=1000",
            f"/jobs/{job['id']}/logs?stream=stderr&lines=1000",
        )
    ]
    assert all(response.status_code == 200 for response in responses)
    answers = [response.text for response in responses]
    # Every file of the platform's home (its database, server log, job files) and of the job's directory there.
    remote_job = machine.home / "tplat" / "jobs" / job["id"]
    files = [path for root in (ssh_server.home, remote_job) for path in root.rglob("*") if path.is_file()]
    assert any(path.suffix == ".db" for path in files) and len(files) > 10
    for canary in canaries:
        assert all(canary not in answer for answer in answers), canary[:6]
        for path in files:
            assert canary.encode() not in path.read_bytes(), (canary[:6], path)


def test_no_word_of_a_host_or_a_file_name_is_read_by_a_shell(ssh_server, machine, demo_assets, tmp_path):
    canaries = machine.home / "canaries"
    hostile = f"$(touch {canaries}/a) `touch {canaries}/b`; touch {canaries}/c"
    work_dir = f"{machine.home}/w {hostile}"
    data = tmp_path / f"data {hostile.replace('/', '_')}.jsonl"
    shutil.copy(demo_assets["sft"], data)
    machine.run(["mkdir", str(canaries)])
    environment = {"TPLAT_NOTE": hostile}
    assert add_and_test(ssh_server, machine, "hostile", work_dir=work_dir, environment=environment)["ok"]
    job = short_job(ssh_server, demo_assets, "job-hostile", "hostile", dataset=data)
    assert job["status"] == "completed", job["error"]
    remote_job = Path(work_dir) / "jobs" / job["id"]
    config = json.loads((remote_job / "run_config.json").read_text())
    assert Path(config["dataset_paths"][0]).name == data.name  # synced under its own name, word for word
    assert Path(config["dataset_paths"][0]).parent.parent == Path(work_dir) / "data"
    assert list(canaries.iterdir()) == [] and not Path(f"{canaries}/a").exists()
    assert not any(Path("/tmp").glob("*canaries*"))


def wait_synced(server, host: str, dataset: str) -> dict:
    def ended() -> dict | None:
        states = {entry["dataset"]: entry for entry in server.api.get(f"/hosts/{host}/datasets").json()}
        return states[dataset] if states[dataset]["state"] in ("synced", "failed") else None

    return wait_until(ended, timeout=120, message=f"{dataset} synced to {host}")


def test_a_dataset_sync_goes_on_from_an_interrupted_copy_and_is_checked_by_hash(ssh_server, machine, tmp_path):
    data = tmp_path / "sync-me.jsonl"
    rows = [
        {"messages": [{"role": "user", "content": f"q{i}"}, {"role": "assistant", "content": f"a{i}"}]}
        for i in range(40_000)
    ]
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    registered = ssh_server.api.post("/datasets", json={"name": "sync-me", "path": str(data), "kind": "sft"})
    assert registered.status_code == 201, registered.text
    states = {entry["dataset"]: entry["state"] for entry in ssh_server.api.get("/hosts/remote/datasets").json()}
    assert states["sync-me"] == "not_synced"
    # An interrupted copy whose first half holds other bytes: a sync that goes on from it (rather than copying
    # everything again) makes a copy of another content, which the hash check refuses and removes.
    content_hash = hashlib.sha256(data.read_bytes()).hexdigest()
    partial = machine.home / "tplat" / "data" / content_hash / ".sync-me.jsonl.partial"
    partial.parent.mkdir(parents=True)
    partial.write_bytes(b"x" * (data.stat().st_size // 2))
    for path in (partial.parent.parent, partial.parent, partial):
        os.chown(path, machine.uid, machine.gid)
    assert ssh_server.api.post("/hosts/remote/datasets/sync", json={"dataset": "sync-me"}).status_code == 202
    failed = wait_synced(ssh_server, "remote", "sync-me")
    assert failed["state"] == "failed" and "another content hash" in failed["error"], failed
    assert not partial.exists()
    assert ssh_server.api.post("/hosts/remote/datasets/sync", json={}).status_code == 202  # all of them
    synced = wait_synced(ssh_server, "remote", "sync-me")
    assert synced["state"] == "synced" and synced["content_hash"] == content_hash, synced
    assert (partial.parent / "sync-me.jsonl").read_bytes() == data.read_bytes()


def test_the_cli_adds_tests_syncs_and_removes_a_host(ssh_server, machine, tmp_path):
    key = tmp_path / "key"
    key.write_text(machine.private_key)
    address = f"{machine.username}@{machine.host}:{machine.port}"
    work_dir = str(machine.home / "cli")
    added = ssh_server.cli(
        "hosts", "add", "cli-host", address, "--work-dir", work_dir, "--python", machine.python, "--key-file", str(key)
    )
    assert added.returncode == 0, added.stderr
    tested = ssh_server.cli("hosts", "test", "cli-host")
    assert tested.returncode == 0 and "Python 3.11" in tested.stdout and "ok" in tested.stdout, tested.stdout
    listed = ssh_server.cli("hosts", "list", "--json")
    assert "cli-host" in {host["name"] for host in json.loads(listed.stdout)}
    assert machine.private_key.splitlines()[2] not in listed.stdout + tested.stdout
    assert ssh_server.cli("hosts", "sync", "cli-host", "sync-me").returncode == 0
    assert wait_synced(ssh_server, "cli-host", "sync-me")["state"] == "synced"
    assert "synced" in ssh_server.cli("hosts", "datasets", "cli-host").stdout
    assert ssh_server.cli("hosts", "remove", "cli-host").returncode == 0
    assert ssh_server.api.get("/hosts/cli-host").status_code == 404
    missing = ssh_server.cli("hosts", "test", "cli-host")
    assert missing.returncode != 0 and "no host named 'cli-host'" in missing.stderr + missing.stdout


# Last in the module: it changes the host's key, then stops its SSH server.
def test_a_changed_host_key_is_refused_and_shown_until_trusted_then_an_unreachable_host(
    ssh_server, machine, demo_assets
):
    before = ssh_server.api.get("/hosts/remote").json()["host_key_fingerprint"]
    machine.change_host_key()
    tested = ssh_server.api.post("/hosts/remote/test").json()
    assert not tested["ok"] and f"recorded {before}, presented SHA256:" in tested["error"], tested
    job = short_job(ssh_server, demo_assets, "job-on-changed-key", "remote")
    assert job["status"] == "failed" and "host key" in job["error"] and "changed" in job["error"], job["error"]
    trusted = ssh_server.api.post("/hosts/remote/trust").json()
    assert trusted["ok"] and trusted["trusted_now"] and trusted["host_key_fingerprint"] != before, trusted

    unreachable = host_body(machine, "unreachable", port=free_port())
    assert ssh_server.api.post("/hosts", json=unreachable).status_code == 201
    tested = ssh_server.api.post("/hosts/unreachable/test").json()
    assert not tested["ok"] and "cannot reach 127.0.0.1" in tested["error"], tested
    job = short_job(ssh_server, demo_assets, "job-unreachable", "unreachable")
    assert job["status"] == "failed" and "test the connection first" in job["error"], job["error"]
    # A host that was reachable and trusted, whose server then stopped.
    machine.stop_sshd()
    assert "cannot reach 127.0.0.1" in ssh_server.api.post("/hosts/remote/test").json()["error"]
    job = short_job(ssh_server, demo_assets, "job-on-a-stopped-host", "remote")
    assert job["status"] == "failed" and "cannot reach 127.0.0.1" in job["error"], job["error"]
