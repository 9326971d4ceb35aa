"""Attacks on bounded requests: GPUs, logins, imports, alert targets, steps, WebSocket places, exports,
reward patterns."""

import csv
import io
import json
import secrets
import stat
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import psutil
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.engines.test_verl_validate import GRPO, rooted
from tests.support.hostile import (
    LOGIN_ATTEMPTS,
    LOGIN_VERIFICATIONS,
    MAX_IMPORT_BYTES,
    WEBSOCKETS_PER_USER,
    Answer,
    Case,
    Hostile,
    all_of,
    bearer,
    mentions,
    refused_naming,
)
from training_platform.metrics.live import TRY_AGAIN_LATER

CASES: list[Case] = []


# -- what a job may start, what an import leaves


def cpu_job(h: Hostile) -> Answer:
    """On this server without GPUs, num_gpus is a count of CPU training processes: 16,384 of them was a fork bomb."""
    job = h.job("fork-bomb", start=True)
    job["params"].update(num_gpus=16384, batch_size=16384, micro_batch_size=1)
    return h.call("alice", "POST", "/jobs", json=job)


def import_as(filename: str, job: str = "hostile-import", size: int = 0) -> Callable[[Hostile], Answer]:
    body = b'{"step": 1, "loss": {"total_loss": 0.5}}\n' + b" " * size
    path = f"/monitoring/{job}/metrics/import"
    return lambda h: h.call("alice", "POST", path, params={"filename": filename}, content=body)


def no_file_named(*names: str) -> Callable[[Hostile, Answer], None]:
    """No file the server keeps has a name a client chose: a planted `tokenizer.json` or `evil.py` in the home (a data
    root) would be read back by whatever loads such a file from a folder."""

    def check(hostile: Hostile, _answer: Answer) -> None:
        planted = [path for path in hostile.server.home.rglob("*") if path.name in names]
        assert planted == [], planted

    return check


def no_job(name: str) -> Callable[[Hostile, Answer], None]:
    def check(hostile: Hostile, _answer: Answer) -> None:
        assert hostile.server.api.get(f"/jobs/{name}").status_code == 404

    return check


CASES += [
    Case("cpu-processes-past-the-cores", cpu_job, 422, refused_naming("params.num_gpus")),
    Case("metrics-import-named-tokenizer-json", import_as("tokenizer.json"), 200, no_file_named("tokenizer.json")),
    Case("metrics-import-named-evil-py", import_as("evil.py"), 200, no_file_named("evil.py")),
    Case(
        "metrics-import-refused-leaves-no-job",
        import_as("m.jsonl", job="refused-import", size=MAX_IMPORT_BYTES),
        413,
        all_of(no_job("refused-import"), no_file_named("m.jsonl")),
    ),
]


# -- step numbers and relative paths (issue 24: a step past 2^63 was a 500; `model.path=somedir` read the server's
# working directory)


def diagnose_step(step: int) -> Callable[[Hostile], Answer]:
    return lambda h: h.call("val", "GET", f"/jobs/{h.alices_job['id']}/health/steps/{step}")


def validate_relative(key: str, value: str) -> Callable[[Hostile], Answer]:
    """A verl command whose other paths lie under the roots, and `key` set to a relative path."""

    def send(h: Hostile) -> Answer:
        command = [arg for arg in rooted(GRPO, h.data) if not arg.startswith(f"{key}=")]
        return h.call("val", "POST", "/engines/verl/validate", json={"command": [*command, f"{key}={value}"]})

    return send


def refused_override(key: str) -> Callable[[Hostile, Answer], None]:
    def check(_hostile: Hostile, answer: Answer) -> None:
        assert f"override '{key}': not under the platform's data roots" in answer.text, answer.text

    return check


CASES += [
    Case("health-step-above-2-63", diagnose_step(2**63 + 5), 422, refused_naming("step")),
    Case("health-step-negative", diagnose_step(-1), 422, refused_naming("step")),
    Case(
        "verl-validate-bare-relative-model-path",
        validate_relative("actor_rollout_ref.model.path", "somedir"),
        422,
        refused_override("actor_rollout_ref.model.path"),
    ),
    Case(
        "verl-validate-relative-data-file",
        validate_relative("data.train_files", "data/train.parquet"),
        422,
        refused_override("data.train_files"),
    ),
]


# -- logins, WebSocket places, alert targets, exports, the home

ARGON2_BYTES = 64 * 2**20  # what one password verification holds (pwdlib's argon2 memory cost)
BURST = 40  # the probe of issue 24: 40 wrong logins at once were all verified against a limit of 10


def wrong_login(h: Hostile, name: str, address: str) -> Answer:
    # Uvicorn believes X-Forwarded-For from loopback: each address is a client of its own.
    body = {"username": name, "password": f"not-the-password-{secrets.token_hex(4)}"}
    return h.call("anonymous", "POST", "/auth/login", json=body, headers={"X-Forwarded-For": address})


def parallel_guesses(h: Hostile) -> Answer:
    """A burst of wrong passwords for one user from one address: each attempt counts before its hash is checked, so
    exactly LOGIN_ATTEMPTS are verified (401) and every other one is refused unverified (429)."""
    with ThreadPoolExecutor(BURST) as pool:
        answers = list(pool.map(lambda _: wrong_login(h, "burst-target", "10.9.0.1"), range(BURST)))
    statuses = Counter(answer.status for answer in answers)
    assert statuses == {401: LOGIN_ATTEMPTS, 429: BURST - LOGIN_ATTEMPTS}, statuses
    return next(answer for answer in answers if answer.status == 429)


def parallel_strangers(h: Hostile) -> Answer:
    """A burst no rate limit stops (another user name from another address each time): at most LOGIN_VERIFICATIONS
    hashes are checked at once, so the server's resident memory grows by those, not by one 64 MiB per request."""
    server = psutil.Process(h.pid)
    before = peak = server.memory_info().rss
    finished = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not finished.wait(0.005):
            peak = max(peak, server.memory_info().rss)

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        with ThreadPoolExecutor(BURST) as pool:
            answers = list(pool.map(lambda n: wrong_login(h, f"stranger-{n}", f"10.9.1.{n}"), range(BURST)))
    finally:
        finished.set()
        sampler.join()
    grown = peak - before
    print(f"{BURST} parallel logins: server RSS {before / 2**20:.0f} MiB, +{grown / 2**20:.0f} MiB at most")
    assert grown < (LOGIN_VERIFICATIONS + 1) * ARGON2_BYTES, grown / 2**20
    assert {answer.status for answer in answers} <= {401, 429}, Counter(answer.status for answer in answers)
    return answers[0]


def sockets_past_the_users_places(h: Hostile) -> Answer:
    """Bob holds his WEBSOCKETS_PER_USER places; his next socket is closed with 1013 and the reason, while Alice
    still gets one, and Bob again once he gave one back. Accepted first (101): a close before the handshake
    reaches a browser without its code or reason."""
    url = h.server.ws_url(f"/monitoring/{h.alices_job['id']}/live")

    def opened(who: str) -> ClientConnection:
        socket = connect(url, additional_headers=bearer(h.tokens[who]), open_timeout=30)
        assert json.loads(socket.recv(timeout=30))["type"] == "status"  # admitted: it holds a place
        return socket

    with ExitStack() as held:
        bobs = [held.enter_context(opened("bob")) for _ in range(WEBSOCKETS_PER_USER)]
        with connect(url, additional_headers=bearer(h.tokens["bob"]), open_timeout=30) as refused:
            with pytest.raises(ConnectionClosed) as closed:
                refused.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == TRY_AGAIN_LATER, closed.value
        held.enter_context(opened("alice"))
        bobs[0].close()
        held.enter_context(opened("bob"))
    return Answer(101, closed.value.rcvd.reason)


def alert_target(url: str) -> Callable[[Hostile], Answer]:
    body = {"name": "inside", "url": url}
    return lambda h: h.call("admin", "POST", "/alerts/targets", json=body)


def no_alert_target(hostile: Hostile, _answer: Answer) -> None:
    assert hostile.server.api.get("/alerts/targets").json() == []


REFUSED_TARGET = all_of(refused_naming("url"), mentions("PLATFORM_ALERT_ALLOWED_NETWORKS"), no_alert_target)
FORMULA = '=HYPERLINK("http://x")'


def export_formula_name(h: Hostile) -> Answer:
    """A metric named as a spreadsheet formula, imported by a member and exported to CSV by a viewer."""
    line = json.dumps({"step": 1, "custom": {FORMULA: -0.5}}).encode() + b"\n"
    path = "/monitoring/hostile-import/metrics/import"
    imported = h.call("alice", "POST", path, params={"filename": "formulas.jsonl"}, content=line)
    assert imported.status == 200, imported.text
    return h.call("val", "GET", "/monitoring/hostile-import/metrics/export", params={"format": "csv"})


def formula_quoted_number_kept(_hostile: Hostile, answer: Answer) -> None:
    header, *rows = csv.reader(io.StringIO(answer.text))
    assert FORMULA not in header and "'" + FORMULA in header, header
    column = header.index("'" + FORMULA)
    assert [row[column] for row in rows if row[0] == "1"] == ["-0.5"], rows  # a number stays a number


def private_home(hostile: Hostile, _answer: Answer) -> None:
    """The home the test made 0755 was made the owner's alone when the server started; so was its database."""
    home = hostile.server.home
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    database = home / "platform.db"
    for path in (database, database.with_name("platform.db-wal"), database.with_name("platform.db-shm")):
        assert not path.exists() or stat.S_IMODE(path.stat().st_mode) == 0o600, path


CASES += [
    Case("login-parallel-burst-one-user", parallel_guesses, 429, mentions("too many failed logins")),
    Case("login-parallel-burst-bounded-memory", parallel_strangers, frozenset({401, 429})),
    Case(
        "websocket-one-user-past-their-places",
        sockets_past_the_users_places,
        101,
        mentions("PLATFORM_MAX_WEBSOCKETS_PER_USER"),
    ),
    Case("alert-target-loopback", alert_target("http://127.0.0.1:8000/hook"), 422, REFUSED_TARGET),
    Case("alert-target-cloud-metadata", alert_target("http://169.254.169.254/latest/meta-data/"), 422, REFUSED_TARGET),
    Case("alert-target-private", alert_target("http://10.0.0.1/hook"), 422, REFUSED_TARGET),
    Case("alert-target-loopback-ipv6", alert_target("http://[::1]:8000/hook"), 422, REFUSED_TARGET),
    Case("alert-target-name-resolving-to-loopback", alert_target("http://localhost:8000/hook"), 422, REFUSED_TARGET),
    Case("metrics-csv-export-formula-name", export_formula_name, 200, formula_quoted_number_kept),
    Case("home-and-database-private", lambda h: h.call("val", "GET", "/health"), 200, private_home),
]


# -- reward patterns


def format_check_job(pattern: str) -> Callable[[Hostile], Answer]:
    def send(h: Hostile) -> Answer:
        body = h.job("pattern-job", algorithm="grpo")
        body["params"]["rewards"] = [{"type": "format_check", "pattern": pattern}]
        return h.call("alice", "POST", "/jobs", json=body)

    return send


PATTERN_FIELD = refused_naming("params.rewards.0.pattern")
CASES += [
    # Backtracking patterns need a backtracking engine; RE2 matches in linear time and refuses them.
    Case("reward-pattern-backreference", format_check_job(r"(a+)\1+$"), 422, PATTERN_FIELD),
    Case("reward-pattern-lookahead", format_check_job(r"(?=(a+)+$)"), 422, PATTERN_FIELD),
]
