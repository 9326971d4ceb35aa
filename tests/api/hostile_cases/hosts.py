"""Attacks through the hosts API: members and viewers managing hosts, and host fields made to be read by a shell
(`;`, `$()`, backticks, newlines), to climb out of the work directory (`..`, a relative path) or to name another
interpreter. None adds a host (the table's last test lists them): the server has no host at all."""

from collections.abc import Callable

from tests.support.hostile import Answer, Case, Hostile, refused_naming

# A key-shaped credential: the fields around it are what is under attack, and none gets as far as using it.
KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n"


def add_host(who: str = "admin", **fields) -> Callable[[Hostile], Answer]:
    def send(h: Hostile) -> Answer:
        body = {
            "name": "gpu-box",
            "host": "127.0.0.1",
            "port": 22,
            "username": "trainer",
            "private_key": KEY,
            "work_dir": "/srv/tplat",
            "python": "/usr/bin/python3",
            **fields,
        }
        return h.call(who, "POST", "/hosts", json=body)

    return send


def host_action(who: str, method: str, path: str) -> Callable[[Hostile], Answer]:
    return lambda h: h.call(who, method, path)


CASES: list[Case] = [
    Case("host-added-by-a-member", add_host("alice"), 403),
    Case("host-added-by-a-viewer", add_host("val"), 403),
    Case("host-tested-by-a-member", host_action("alice", "POST", "/hosts/gpu-box/test"), 403),
    Case("host-key-trusted-by-a-member", host_action("alice", "POST", "/hosts/gpu-box/trust"), 403),
    Case("host-removed-by-a-member", host_action("alice", "DELETE", "/hosts/gpu-box"), 403),
    Case("host-address-with-a-command", add_host(host="gpu;touch /tmp/owned"), 422, refused_naming("host")),
    Case("host-address-with-substitution", add_host(host="$(touch /tmp/owned)"), 422, refused_naming("host")),
    Case("host-address-as-an-option", add_host(host="-oProxyCommand=touch /tmp/owned"), 422, refused_naming("host")),
    Case("host-user-with-backticks", add_host(username="`touch /tmp/owned`"), 422, refused_naming("username")),
    Case("host-user-with-a-newline", add_host(username="trainer\ntouch /tmp/owned"), 422, refused_naming("username")),
    Case("host-name-with-dots-and-slashes", add_host(name="../../etc"), 422, refused_naming("name")),
    Case("host-work-dir-relative", add_host(work_dir="tplat"), 422, refused_naming("work_dir")),
    Case("host-work-dir-climbing-out", add_host(work_dir="/srv/tplat/../../etc"), 422, refused_naming("work_dir")),
    Case("host-work-dir-with-a-newline", add_host(work_dir="/srv/tplat\n/etc"), 422, refused_naming("work_dir")),
    Case("host-work-dir-root", add_host(work_dir="/"), 422, refused_naming("work_dir")),
    Case("host-python-relative", add_host(python="python3; touch /tmp/owned"), 422, refused_naming("python")),
    Case(
        "host-variable-name-with-a-command",
        add_host(environment={"X;touch /tmp/owned": "1"}),
        422,
        refused_naming("environment"),
    ),
    Case("host-port-out-of-range", add_host(port=70000), 422, refused_naming("port")),
    Case(
        "host-with-password-and-key",
        add_host(password="pw"),  # the key as well: one credential or the other
        422,
    ),
    Case(
        "host-run-mode-with-a-command",
        lambda h: h.call("alice", "POST", "/jobs", json={**h.job("ssh-attack"), "run_mode": "ssh:x;touch /tmp/owned"}),
        422,
        refused_naming("run_mode"),
    ),
    Case(
        "host-run-mode-unknown",
        lambda h: h.call("alice", "POST", "/jobs", json={**h.job("ssh-unknown"), "run_mode": "ssh:nowhere"}),
        422,
        refused_naming("run_mode"),
    ),
]
