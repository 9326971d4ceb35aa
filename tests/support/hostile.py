"""The hostile-input harness (issue 14, extended by issue 24): one real server under attack, with clients by
role, a member's job, canaries and files outside the data roots; a `Case` is one attack and its safe answer. The
tables of attacks are in tests/api/test_hostile.py and tests/api/hostile_cases/, one module per class of attack."""

import json
import secrets
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psutil
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.support.helpers import ServerProcess

PASSWORD = "a-long-enough-password"
CANARY_SECRET = f"canary-{secrets.token_hex(12)}"
SOME_SECRET = f"some-secret-{secrets.token_hex(12)}"
# A value under a name that says nothing of a secret: the platform's redaction of secret-looking variables does not
# hide it, so only never resolving `${oc.env:...}` keeps it out of an answer.
PLAIN_CANARY = f"plain-canary-{secrets.token_hex(12)}"
OUTSIDE_TEXT = f"outside-content-{secrets.token_hex(8)}"  # what files outside the data roots hold
MAX_REQUEST_BYTES = 64 * 2**10
MAX_DECODED_BYTES = 2 * 2**20
DECODE_CPU_SECONDS = 5
DECODE_MEMORY_BYTES = 1 * 2**30
LOGIN_ATTEMPTS = 5
LOGIN_VERIFICATIONS = 2  # passwords verified at once
WEBSOCKETS_PER_USER = 3
MAX_IMPORT_BYTES = 2**20


@dataclass
class Answer:
    """What came back: an HTTP response, or a WebSocket handshake's answer (101 when it was accepted)."""

    status: int
    text: str
    seconds: float = 0.0

    def json(self):
        return json.loads(self.text)

    @property
    def fields(self) -> list[str]:
        return [error["field"] for error in self.json()["errors"]]


@dataclass
class Hostile:
    """The server under attack and what the attacks need: clients by role, a member's job, the canaries."""

    server: ServerProcess
    root: Path
    data: Path  # a data root
    outside: Path  # beside the roots, not under one
    canary: Path  # where an attack that ran code would leave a trace
    clients: dict[str, httpx.Client]
    tokens: dict[str, str]
    alices_job: dict
    alices_cookie: str
    demo: dict[str, Path]
    alices_api_token: dict = field(default_factory=dict)
    answers: list[str] = field(default_factory=list)  # every body that came back, searched for secrets at the end
    pid: int = 0
    create_time: float = 0.0

    def record(self, response: httpx.Response, seconds: float = 0.0) -> Answer:
        self.answers.append(response.text)
        return Answer(response.status_code, response.text, seconds)

    def call(self, who: str, method: str, path: str, **kwargs) -> Answer:
        began = time.monotonic()
        response = self.clients[who].request(method, path, **kwargs)
        return self.record(response, time.monotonic() - began)

    def websocket(self, path: str, headers: dict[str, str], host: str | None = None) -> Answer:
        """A handshake; `host` names the server in the URL (so in the one Host header) while the socket goes to
        this server, as a browser's does after DNS rebinding."""
        url = self.server.ws_url(path)
        sock = None
        if host is not None:
            url = url.replace("127.0.0.1", host, 1)
            sock = socket.create_connection(("127.0.0.1", self.server.port))
        try:
            with connect(url, sock=sock, additional_headers=headers, open_timeout=30):
                return Answer(101, "")
        except InvalidStatus as refused:
            body = (refused.response.body or b"").decode(errors="replace")
            self.answers.append(body)
            return Answer(refused.response.status_code, body)

    def job(self, name: str, algorithm: str = "sft", **fields) -> dict:
        """A job body that is valid but for what `fields` change."""
        dataset = self.demo["grpo" if algorithm == "grpo" else "sft"]
        body = dict(
            name=name,
            algorithm=algorithm,
            model_path=str(self.demo["model"]),
            dataset_paths=[str(dataset)],
            params={"learning_rate": 1e-3, "batch_size": 8, "micro_batch_size": 8, "max_steps": 3},
        )
        if algorithm == "grpo":
            body["params"].update(rollout_n=2, max_prompt_length=32, max_response_length=16)
        return {**body, **fields}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def user_token(server: ServerProcess, name: str) -> str:
    response = server.anonymous().post(
        "/auth/login", params={"token": True}, json={"username": name, "password": PASSWORD}
    )
    assert response.status_code == 200, response.text
    return response.json()["token"]


def hostile_server(tmp_path_factory, demo_assets) -> Iterator[Hostile]:
    """The server under attack, set up; stopped when the generator is closed."""
    root = tmp_path_factory.mktemp("hostile")
    data, outside, canary, rewards = (root / name for name in ("data", "outside", "canary", "rewards"))
    for directory in (data, outside, canary, rewards):
        directory.mkdir()
    # Files outside the roots: data an attacker wants to read, code an attacker wants the server to import.
    (outside / "secret.jsonl").write_text(json.dumps({"prompt": OUTSIDE_TEXT, "response": OUTSIDE_TEXT}) + "\n")
    (outside / "evil.py").write_text(
        f"import os\n\nos.makedirs({str(canary / 'imported')!r})\n\n\n"
        "def score(completion, reference, row):\n    return 1.0\n"
    )
    # Inside a root, links that lead out of it: a file, and a directory dataset with one data file out.
    (data / "link.jsonl").symlink_to(outside / "secret.jsonl")
    (data / "mixed").mkdir()
    (data / "mixed" / "a.jsonl").write_text(json.dumps({"prompt": "q", "response": "a"}) + "\n")
    (data / "mixed" / "b.jsonl").symlink_to(outside / "secret.jsonl")
    (data / "swap.jsonl").write_text(json.dumps({"prompt": "q", "response": "a"}) + "\n")  # a link once registered

    server = ServerProcess(home=root / "home")
    server.home.mkdir()
    server.env.update(
        {
            "PLATFORM_CANARY_SECRET": CANARY_SECRET,
            "SOME_SECRET": SOME_SECRET,
            "PLATFORM_CANARY_NOTE": PLAIN_CANARY,
            "PLATFORM_LOGIN_ATTEMPTS_PER_MINUTE": str(LOGIN_ATTEMPTS),
            "PLATFORM_LOGIN_VERIFICATIONS": str(LOGIN_VERIFICATIONS),
            "PLATFORM_MAX_WEBSOCKETS_PER_USER": str(WEBSOCKETS_PER_USER),
            "PLATFORM_REWARD_CODE_DIR": str(rewards),
            "PLATFORM_DATA_ROOTS": f"{data},{demo_assets['model'].parent}",
            "PLATFORM_MAX_REQUEST_BYTES": str(MAX_REQUEST_BYTES),
            "PLATFORM_MAX_DECODED_BYTES": str(MAX_DECODED_BYTES),
            # The decoding worker's budget (docs/security.md): a backtracking tokenizer stops after seconds.
            "PLATFORM_DECODE_CPU_SECONDS": str(DECODE_CPU_SECONDS),
            "PLATFORM_DECODE_MEMORY_BYTES": str(DECODE_MEMORY_BYTES),
            "PLATFORM_METRICS_MAX_IMPORT_BYTES": str(MAX_IMPORT_BYTES),
        }
    )
    server.start()
    try:
        for name, role in (("alice", "member"), ("bob", "member"), ("val", "viewer"), ("dora", "member")):
            created = server.api.post("/auth/users", json={"name": name, "password": PASSWORD, "role": role})
            assert created.status_code == 201, created.text
        tokens = {name: user_token(server, name) for name in ("alice", "bob", "val", "dora")}
        # Dora holds a session token and an API token; then an admin disables her.
        api_token = httpx.post(
            f"{server.url}/api/v1/auth/tokens", json={"name": "dora-script"}, headers=bearer(tokens["dora"])
        )
        assert api_token.status_code == 201, api_token.text
        tokens["dora-api"] = api_token.json()["token"]
        assert server.api.patch("/auth/users/dora", json={"disabled": True}).json()["disabled"] is True

        base = f"{server.url}/api/v1"
        clients = {
            name: httpx.Client(base_url=base, timeout=120, headers=bearer(token)) for name, token in tokens.items()
        }
        clients["admin"] = server.api
        clients["anonymous"] = server.anonymous()
        login = server.anonymous().post("/auth/login", json={"username": "alice", "password": PASSWORD})
        assert login.status_code == 200, login.text
        context = Hostile(
            server, root, data, outside, canary, clients, tokens, {}, login.cookies["tplat_session"], demo_assets
        )
        alices_api_token = clients["alice"].post("/auth/tokens", json={"name": "alices-script"})
        assert alices_api_token.status_code == 201, alices_api_token.text
        context.alices_api_token = alices_api_token.json()
        job = clients["alice"].post("/jobs", json=context.job("alices-job"))
        assert job.status_code == 201, job.text
        context.alices_job = job.json()
        # Alice's dataset, whose file is then swapped for a link out of the roots.
        swap = {"name": "swap", "path": str(data / "swap.jsonl"), "kind": "sft"}
        assert clients["alice"].post("/datasets", json=swap).status_code == 201
        readable = {"name": "sft-data", "path": str(demo_assets["sft"]), "kind": "sft"}
        assert clients["alice"].post("/datasets", json=readable).status_code == 201
        evaluated = {"name": "eval-data", "path": str(demo_assets["eval"]), "kind": "eval"}
        assert clients["alice"].post("/datasets", json=evaluated).status_code == 201
        (data / "swap.jsonl").unlink()
        (data / "swap.jsonl").symlink_to(outside / "secret.jsonl")
        process = psutil.Process(server.process.pid)
        context.pid, context.create_time = process.pid, process.create_time()
        yield context
    finally:
        server.shutdown()


@dataclass(frozen=True)
class Case:
    id: str
    send: Callable[[Hostile], Answer]
    expect: int | frozenset[int]
    check: Callable[[Hostile, Answer], None] | None = None
    bug: str | None = None  # a known unsafe answer: the case is a strict xfail until the platform is fixed


def refused_naming(*fields: str) -> Callable[[Hostile, Answer], None]:
    """The answer names each of `fields` (or a part of it: a union's member, a list's item)."""

    def check(_hostile: Hostile, answer: Answer) -> None:
        named = answer.fields
        for name in fields:
            assert any(f == name or f.startswith(f"{name}.") for f in named), (name, answer.text)

    return check


def mentions(*texts: str) -> Callable[[Hostile, Answer], None]:
    def check(_hostile: Hostile, answer: Answer) -> None:
        for text in texts:
            assert text in answer.text, (text, answer.text)

    return check


def fast(limit: float) -> Callable[[Hostile, Answer], None]:
    def check(_hostile: Hostile, answer: Answer) -> None:
        assert answer.seconds < limit, answer.seconds

    return check


def all_of(*checks: Callable[[Hostile, Answer], None]) -> Callable[[Hostile, Answer], None]:
    def check(hostile: Hostile, answer: Answer) -> None:
        for each in checks:
            each(hostile, answer)

    return check


def alices(suffix: str = "") -> Callable[[Hostile], str]:
    return lambda h: f"/jobs/{h.alices_job['id']}{suffix}"


def still_pending(hostile: Hostile, _answer: Answer) -> None:
    assert hostile.server.job(hostile.alices_job["id"])["status"] == "pending"
