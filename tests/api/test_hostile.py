"""Hostile input against a real server process (issue 14): every request an attacker would try, by class —
authentication, code from requests, paths, bounded input — gets its safe answer (a 4xx, never a 5xx, never a 2xx
for an attack), and afterwards the server is the same process, still answering; the canaries (a directory, a file,
an import side effect) were never made, and no secret of the server's environment came back in any answer or the
log. The protections themselves are described in docs/security.md; this is the attacker's table."""

import io
import json
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path

import psutil
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.api.hostile_cases import bounds, evaluation, files, hosts, intake, job_files, pipelines
from tests.engines.test_verl_validate import GRPO, PPO
from tests.support.hostile import (
    CANARY_SECRET,
    LOGIN_ATTEMPTS,
    MAX_DECODED_BYTES,
    MAX_REQUEST_BYTES,
    OUTSIDE_TEXT,
    PASSWORD,
    PLAIN_CANARY,
    SOME_SECRET,
    Answer,
    Case,
    Hostile,
    alices,
    all_of,
    bearer,
    fast,
    hostile_server,
    mentions,
    refused_naming,
    still_pending,
)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory, demo_assets) -> Iterator[Hostile]:
    yield from hostile_server(tmp_path_factory, demo_assets)


# -- authentication


def cross_origin_stop(h: Hostile) -> Answer:
    return h.call("admin", "POST", alices("/stop")(h), headers={"Origin": "http://evil.example"})


def plain_text_job(h: Hostile) -> Answer:
    body = json.dumps(h.job("csrf-job")).encode()
    return h.call("alice", "POST", "/jobs", content=body, headers={"content-type": "text/plain"})


def no_job_named(name: str) -> Callable[[Hostile, Answer], None]:
    def check(hostile: Hostile, _answer: Answer) -> None:
        assert hostile.server.api.get(f"/jobs/{name}").status_code == 404

    return check


def live(h: Hostile) -> str:
    return f"/monitoring/{h.alices_job['id']}/live"


def login(name: str, password: str, address: str) -> Callable[[Hostile], Answer]:
    # Uvicorn believes X-Forwarded-For from loopback: each address is a client of its own.
    return lambda h: h.call(
        "anonymous",
        "POST",
        "/auth/login",
        json={"username": name, "password": password},
        headers={"X-Forwarded-For": address},
    )


def same_answer_as_a_wrong_password(hostile: Hostile, answer: Answer) -> None:
    wrong = login("alice", "not-the-password", "10.0.0.2")(hostile)
    assert (wrong.status, wrong.json()) == (answer.status, answer.json())


def brute_force(h: Hostile) -> Answer:
    """Guesses for one user from ever new addresses: the limit per user name stops them."""
    answers = [login("bob", f"guess-{i}", f"10.1.0.{i}")(h) for i in range(LOGIN_ATTEMPTS + 1)]
    assert [a.status for a in answers[:LOGIN_ATTEMPTS]] == [401] * LOGIN_ATTEMPTS
    return answers[-1]


def alices_token_still_works(hostile: Hostile, _answer: Answer) -> None:
    me = hostile.server.anonymous().get("/auth/me", headers=bearer(hostile.alices_api_token["token"]))
    assert me.status_code == 200 and me.json()["name"] == "alice", me.text


AUTHENTICATION = [
    Case("no-credential", lambda h: h.call("anonymous", "GET", "/jobs"), 401),
    Case("no-credential-write", lambda h: h.call("anonymous", "POST", alices("/start")(h)), 401, still_pending),
    Case(
        "wrong-token",
        lambda h: h.call("anonymous", "GET", "/jobs", headers=bearer("tplat_" + secrets.token_urlsafe(32))),
        401,
    ),
    Case(
        "admin-token-as-basic",
        lambda h: h.call("anonymous", "GET", "/jobs", headers={"Authorization": f"Basic {h.server.admin_token}"}),
        401,
    ),
    Case(
        "admin-token-truncated",
        lambda h: h.call("anonymous", "GET", "/jobs", headers=bearer(h.server.admin_token[:-1])),
        401,
    ),
    Case("disabled-users-session", lambda h: h.call("dora", "GET", "/jobs"), 401),
    Case("disabled-users-api-token", lambda h: h.call("dora-api", "POST", "/jobs", json=h.job("dora-job")), 401),
    Case("dns-rebinding-host", lambda h: h.call("admin", "GET", "/jobs", headers={"Host": "evil.example"}), 400),
    Case("cross-origin-post", cross_origin_stop, 403, all_of(mentions("cross-origin"), still_pending)),
    Case(
        "cross-origin-login",
        lambda h: h.call(
            "anonymous",
            "POST",
            "/auth/login",
            json={"username": "alice", "password": PASSWORD},
            headers={"Origin": "http://evil.example"},
        ),
        403,
    ),
    Case(
        "login-unknown-user",
        login("nobody-here", "whatever-password", "10.0.0.1"),
        401,
        same_answer_as_a_wrong_password,
    ),
    Case("login-brute-force", brute_force, 429),
    Case(
        "login-huge-password",  # hashing a long password costs CPU: refused before it is hashed
        lambda h: h.call(
            "anonymous",
            "POST",
            "/auth/login",
            json={"username": "alice", "password": "x" * 60_000},
            headers={"X-Forwarded-For": "10.0.0.3"},
        ),
        422,
        all_of(refused_naming("password"), fast(2.0)),
    ),
    Case("text-plain-json-body", plain_text_job, 415, no_job_named("csrf-job")),
    Case("websocket-no-credential", lambda h: h.websocket(live(h), {}), 401),
    Case(
        "websocket-foreign-origin",
        lambda h: h.websocket(live(h), {**h.server.auth_headers, "Origin": "http://evil.example"}),
        403,
    ),
    Case("websocket-rebound-host", lambda h: h.websocket(live(h), h.server.auth_headers, host="evil.example"), 400),
    Case(
        "websocket-session-cookie-foreign-origin",  # cross-site WebSocket hijacking with the victim's cookie
        lambda h: h.websocket(live(h), {"Cookie": f"tplat_session={h.alices_cookie}", "Origin": "http://evil.example"}),
        403,
    ),
    Case(
        "websocket-step-above-2-63", lambda h: h.websocket(live(h) + f"?since_step={2**63}", h.server.auth_headers), 403
    ),
    Case(
        "viewer-creates-job",
        lambda h: h.call("val", "POST", "/jobs", json=h.job("viewer-job")),
        403,
        mentions("viewer"),
    ),
    Case("viewer-starts-job", lambda h: h.call("val", "POST", alices("/start")(h)), 403, still_pending),
    Case(
        "viewer-makes-user",
        lambda h: h.call("val", "POST", "/auth/users", json={"name": "eve", "password": PASSWORD}),
        403,
    ),
    Case("member-starts-others-job", lambda h: h.call("bob", "POST", alices("/start")(h)), 403, still_pending),
    Case("member-deletes-others-job", lambda h: h.call("bob", "DELETE", alices()(h)), 403, still_pending),
    Case(
        "member-imports-metrics-into-others-job",
        lambda h: h.call(
            "bob",
            "POST",
            f"/monitoring/{h.alices_job['name']}/metrics/import",
            params={"filename": "m.jsonl"},
            content=b'{"step": 1, "loss": {"total_loss": 9}}\n',
        ),
        403,
        mentions("belongs to alice"),
    ),
    Case(
        "member-changes-others-dataset",
        lambda h: h.call("bob", "PATCH", "/datasets/swap", json={"description": "mine now"}),
        403,
        mentions("belongs to alice"),
    ),
    Case(
        "member-mints-token-for-another-user",
        lambda h: h.call("bob", "POST", "/auth/tokens", json={"name": "as-alice", "user": "alice"}),
        403,
    ),
    Case(
        "viewer-mints-token-for-admin",
        lambda h: h.call("val", "POST", "/auth/tokens", json={"name": "as-admin", "user": "admin"}),
        403,
    ),
    Case(
        "member-revokes-others-token",
        lambda h: h.call("bob", "DELETE", f"/auth/tokens/{h.alices_api_token['id']}"),
        404,  # someone else's token does not exist for a member
        alices_token_still_works,
    ),
    Case("member-makes-self-admin", lambda h: h.call("bob", "PATCH", "/auth/users/bob", json={"role": "admin"}), 403),
]


# -- code from requests


def validate(*command: str) -> Callable[[Hostile], Answer]:
    return lambda h: h.call("val", "POST", "/engines/verl/validate", json={"command": list(command)})


def validate_with(make: Callable[[Hostile], list[str]]) -> Callable[[Hostile], Answer]:
    return lambda h: h.call("val", "POST", "/engines/verl/validate", json={"command": make(h)})


def refused_override(key: str) -> Callable[[Hostile, Answer], None]:
    def check(_hostile: Hostile, answer: Answer) -> None:
        assert any(f"'{key}'" in error["message"] for error in answer.json()["errors"]), (key, answer.text)

    return check


def lora_job(targets) -> Callable[[Hostile], Answer]:
    def send(h: Hostile) -> Answer:
        body = h.job("lora-job")
        body["params"]["lora"] = {"target_modules": targets}
        return h.call("alice", "POST", "/jobs", json=body)

    return send


def reward_job(function: Callable[[Hostile], str] | str) -> Callable[[Hostile], Answer]:
    def send(h: Hostile) -> Answer:
        body = h.job("reward-job", algorithm="grpo")
        body["params"]["rewards"] = [{"type": "custom", "function": function(h) if callable(function) else function}]
        return h.call("alice", "POST", "/jobs", json=body)

    return send


REWARD_FIELD = refused_naming("params.rewards.0.function")

CODE = [
    Case(
        "validate-target-makedirs",
        validate_with(
            lambda h: [
                *PPO[:3],
                "+checkpoint.x._target_=os.makedirs",
                f"+checkpoint.x.name={h.canary / 'made_by_target'}",
            ]
        ),
        422,
        refused_override("checkpoint.x._target_"),
    ),
    Case(
        "validate-env-interpolation",
        validate(*GRPO, "+trainer.x=${oc.env:PLATFORM_CANARY_SECRET}"),
        422,
        refused_override("trainer.x"),
    ),
    Case(
        "validate-env-interpolation-in-a-value",
        validate(*GRPO, "trainer.project_name=${oc.env:SOME_SECRET}"),
        422,
        refused_override("trainer.project_name"),
    ),
    Case(
        "validate-quoted-interpolation-of-a-plain-variable",
        validate(*GRPO, "trainer.project_name='${oc.env:PLATFORM_CANARY_NOTE}'"),
        422,
        refused_override("trainer.project_name"),
    ),
    Case(
        "validate-hdfs-shell",
        validate_with(lambda h: [*PPO, f"critic.model.path='hdfs://x;touch {h.canary / 'made_by_shell'};'"]),
        422,
        refused_override("critic.model.path"),
    ),
    Case(
        "job-lora-interpolation-text", lora_job("x,${oc.env:HOME}"), 422, refused_naming("params.lora.target_modules")
    ),
    Case(
        "job-lora-interpolation-list",
        lora_job(["q_proj", "${oc.env:SOME_SECRET}"]),
        422,
        refused_naming("params.lora.target_modules"),
    ),
    Case(
        "job-model-path-hdfs-shell",
        lambda h: h.call(
            "alice", "POST", "/jobs", json=h.job("hdfs-job", model_path=f"hdfs://x;touch {h.canary / 'made_by_job'};")
        ),
        422,
        refused_naming("model_path"),
    ),
    Case("reward-etc-passwd", reward_job("/etc/passwd:score"), 422, REWARD_FIELD),
    Case("reward-file-outside-dir", reward_job(lambda h: f"{h.outside / 'evil.py'}:score"), 422, REWARD_FIELD),
    Case("reward-relative-escape", reward_job("../outside/evil.py:score"), 422, REWARD_FIELD),
    Case("reward-module-os", reward_job("os:system"), 422, REWARD_FIELD),
    Case("reward-module-subprocess", reward_job("subprocess:run"), 422, REWARD_FIELD),
]


# -- paths


def upload(name: str, filename: str, content: Callable[[], bytes]) -> Callable[[Hostile], Answer]:
    def send(h: Hostile) -> Answer:
        params = {"name": name, "kind": "sft", "filename": filename}
        headers = {"content-type": "application/octet-stream"}
        return h.call("alice", "POST", "/datasets/upload", params=params, content=content(), headers=headers)

    return send


OUTSIDE_MESSAGE = "not under the platform's data roots"


def no_secret_content(_hostile: Hostile, answer: Answer) -> None:
    assert OUTSIDE_TEXT not in answer.text and "root:" not in answer.text, answer.text


def refused_path(field_name: str) -> Callable[[Hostile, Answer], None]:
    return all_of(refused_naming(field_name), mentions(OUTSIDE_MESSAGE), no_secret_content)


def register(path: Callable[[Hostile], str] | str, name: str = "stolen") -> Callable[[Hostile], Answer]:
    def send(h: Hostile) -> Answer:
        given = path(h) if callable(path) else path
        return h.call("alice", "POST", "/datasets", json={"name": name, "path": given, "kind": "sft"})

    return send


def same_answer_as_a_missing_path(hostile: Hostile, answer: Answer) -> None:
    missing = register(str(hostile.outside / "no-such-file.jsonl"))(hostile)
    assert missing.status == answer.status and missing.json() == answer.json(), (missing.text, answer.text)


def validate_model_path(h: Hostile, path: Path) -> Answer:
    command = [arg for arg in GRPO if not arg.startswith("actor_rollout_ref.model.path=")]
    return h.call(
        "val", "POST", "/engines/verl/validate", json={"command": [*command, f"actor_rollout_ref.model.path={path}"]}
    )


def same_validation_as_a_missing_path(hostile: Hostile, answer: Answer) -> None:
    missing = validate_model_path(hostile, hostile.outside / "no-such-model")
    assert (missing.status, missing.json()) == (answer.status, answer.json()), (missing.text, answer.text)


def preview_with(h: Hostile, tokenizer: Path) -> Answer:
    return h.call("val", "GET", "/datasets/sft-data/rows/1/preview", params={"tokenizer": str(tokenizer)})


def same_preview_as_a_missing_path(hostile: Hostile, answer: Answer) -> None:
    missing = preview_with(hostile, hostile.outside / "no-such-tokenizer")
    assert (missing.status, missing.json()) == (answer.status, answer.json()), (missing.text, answer.text)


def ppo_job(h: Hostile, reward_model_path: str) -> dict:
    body = h.job("outside-reward-model", algorithm="grpo", engine="verl")
    body["params"]["reward_model_path"] = reward_model_path
    return {**body, "algorithm": "ppo"}


PATHS = [
    Case("dataset-etc-passwd", register("/etc/passwd"), 422, refused_path("path")),
    Case(
        "dataset-outside-existing-vs-missing",
        register(lambda h: str(h.outside / "secret.jsonl")),
        422,
        all_of(refused_path("path"), same_answer_as_a_missing_path),
    ),
    Case("dataset-dotdot-escape", register(lambda h: f"{h.data}/../outside/secret.jsonl"), 422, refused_path("path")),
    Case("dataset-symlink-out", register(lambda h: str(h.data / "link.jsonl")), 422, refused_path("path")),
    Case("dataset-directory-with-link-out", register(lambda h: str(h.data / "mixed")), 422, no_secret_content),
    Case("dataset-nul-byte", register(lambda h: f"{h.data}/a.jsonl\x00/etc/passwd"), 422, refused_path("path")),
    Case(
        "dataset-link-swapped-after-registration",
        lambda h: h.call("bob", "GET", "/datasets/swap/rows"),
        frozenset({409, 422}),
        all_of(mentions(OUTSIDE_MESSAGE), no_secret_content),
    ),
    Case(
        "job-on-swapped-dataset",
        lambda h: h.call("alice", "POST", "/jobs", json=h.job("swapped", dataset_paths=["dataset:swap"])),
        422,
        all_of(mentions(OUTSIDE_MESSAGE), no_secret_content),
    ),
    Case(
        "job-eval-dataset-outside",
        lambda h: h.call("alice", "POST", "/jobs", json=h.job("outside-eval", eval_dataset_path="/etc/passwd")),
        422,
        refused_path("eval_dataset_path"),
    ),
    Case(
        "validate-model-path-outside-roots",
        lambda h: validate_model_path(h, h.outside),
        422,
        all_of(mentions(OUTSIDE_MESSAGE), same_validation_as_a_missing_path),
    ),
    Case(
        "upload-filename-traversal",
        upload("planted", "../../../outside/planted.jsonl", lambda: b'{"prompt": "q", "response": "a"}\n'),
        422,
        refused_naming("filename"),
    ),
    Case(
        "report-id-traversal",
        lambda h: h.call("val", "GET", "/datasets/reports/..%2F..%2Fplatform.db"),
        frozenset({404, 422}),
    ),
    Case(
        "stats-tokenizer-outside",
        lambda h: h.call("val", "GET", "/datasets/sft-data/stats", params={"tokenizer": "/etc"}),
        422,
        refused_path("tokenizer"),
    ),
    Case(
        "preview-tokenizer-outside-existing-vs-missing",
        lambda h: preview_with(h, h.outside),
        422,
        all_of(refused_path("tokenizer"), same_preview_as_a_missing_path),
    ),
    Case(
        "estimate-model-outside",
        lambda h: h.call("val", "POST", "/compute/estimate", json={"model": str(h.outside), "seq_len": 512}),
        422,
        refused_path("model"),
    ),
    Case(
        "job-ppo-reward-model-outside",
        lambda h: h.call("alice", "POST", "/jobs", json=ppo_job(h, reward_model_path="/etc")),
        422,
        refused_path("params.reward_model_path"),
    ),
    Case("dataset-other-users-home", register("~root/.bashrc"), 422, refused_path("path")),
    Case(
        "model-etc",
        lambda h: h.call("alice", "POST", "/models", json={"name": "etc", "path": "/etc"}),
        422,
        refused_path("path"),
    ),
    Case(
        "job-model-outside",
        lambda h: h.call("alice", "POST", "/jobs", json=h.job("outside-model", model_path=str(h.outside))),
        422,
        refused_path("model_path"),
    ),
    Case(
        "job-dataset-outside",
        lambda h: h.call("alice", "POST", "/jobs", json=h.job("outside-data", dataset_paths=["/etc/passwd"])),
        422,
        all_of(mentions(OUTSIDE_MESSAGE), no_secret_content),
    ),
]


# -- bounded input


def deep_jsonl() -> bytes:
    good = json.dumps({"prompt": "q", "response": "a"})
    deep = '{"prompt": "q", "response": "a", "x": ' + "[" * 20_000 + "]" * 20_000 + "}"
    return f"{good}\n{deep}\n{good}\n".encode()


def names_row(row: int) -> Callable[[Hostile, Answer], None]:
    def check(_hostile: Hostile, answer: Answer) -> None:
        rows = [error.get("row") for error in answer.json()["errors"]]
        assert row in rows or f"row {row}" in answer.text, answer.text

    return check


def parquet_bomb() -> bytes:
    """A few KB that decode to 40 MB: one long string repeated, dictionary-encoded and compressed."""
    text = "x" * 4000
    table = pa.table({"prompt": pa.array([text] * 10_000), "response": pa.array(["a"] * 10_000)})
    sink = io.BytesIO()
    pq.write_table(table, sink, use_dictionary=True, compression="zstd")
    data = sink.getvalue()
    assert len(data) < 64 * 2**10 and len(text) * 10_000 > 10 * MAX_DECODED_BYTES
    return data


def json_body(content: bytes) -> dict:
    return {"content": content, "headers": {"content-type": "application/json"}}


METRICS_LINES = [
    b'{"step": 1, "loss": {"total_loss": 0.5}}',
    b'{"step": 1' + b"0" * 400 + b', "loss": {"total_loss": 1}}',  # a 400-digit step
    b'{"step": 2, "custom": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",  # deep nesting
    b'{"step": ' + str(2**63 + 5).encode() + b', "loss": {"total_loss": 1}}',  # above 2^63
    b'{"step": 3, "custom": {"x": "\xff\xfe"}}',  # not UTF-8
    b'{"step": 4, "loss": {"total_loss": 0.25}}',
]


def import_metrics(h: Hostile) -> Answer:
    body = b"\n".join(METRICS_LINES) + b"\n"
    return h.call(
        "alice", "POST", "/monitoring/hostile-import/metrics/import", params={"filename": "m.jsonl"}, content=body
    )


def good_lines_ingested_bad_reported(hostile: Hostile, answer: Answer) -> None:
    report = answer.json()
    assert report["records"] == 2 and [m["line_number"] for m in report["malformed"]] == [2, 3, 4, 5], report
    series = hostile.server.api.get("/monitoring/hostile-import/metrics").json()["series"]
    steps = {s["key"]: s["steps"] for s in series}
    assert steps["loss"] == [1, 4], series


def logs(stream: str, download: bool = False) -> Callable[[Hostile], Answer]:
    suffix = "/logs/download" if download else "/logs"
    return lambda h: h.call("alice", "GET", alices(suffix)(h), params={"stream": stream})


def metrics_query(**params) -> Callable[[Hostile], Answer]:
    return lambda h: h.call("alice", "GET", f"/monitoring/{h.alices_job['id']}/metrics", params=params)


BOUNDED = [
    Case("jsonl-line-nested-20000-deep", upload("deep-jsonl", "deep.jsonl", deep_jsonl), 422, names_row(2)),
    Case(
        "json-array-element-nested-20000-deep",
        upload(
            "deep-json",
            "deep.json",
            lambda: b'[{"prompt": "q", "response": "a"}, {"prompt": "q", "response": "a", "x": '
            + b"[" * 20_000
            + b"]" * 20_000
            + b"}]",
        ),
        422,
        names_row(2),
    ),
    Case(
        "parquet-bomb",
        upload("bomb", "bomb.parquet", parquet_bomb),
        422,
        mentions("PLATFORM_MAX_DECODED_BYTES"),
    ),
    Case(
        "estimate-seq-len-10e200",
        lambda h: h.call("val", "POST", "/compute/estimate", json={"model": "Qwen2.5-0.5B", "seq_len": 10**200}),
        422,
        all_of(refused_naming("seq_len"), fast(2.0)),
    ),
    Case("metrics-step-above-2-63", metrics_query(start_step=2**63 + 5), 422, refused_naming("start_step")),
    Case("metrics-max-points-huge", metrics_query(max_points=10**30), 422, refused_naming("max_points")),
    Case(
        "jobs-limit-huge",
        lambda h: h.call("val", "GET", "/jobs", params={"limit": 10**12}),
        422,
        refused_naming("limit"),
    ),
    Case("rows-offset-above-2-63", lambda h: h.call("val", "GET", "/datasets/x/rows", params={"offset": 2**63}), 422),
    Case(
        "body-over-max-request-bytes",
        lambda h: h.call(
            "alice", "POST", "/jobs", json=h.job("big-body", params={"pad": "x" * (MAX_REQUEST_BYTES + 1024)})
        ),
        413,
        mentions("PLATFORM_MAX_REQUEST_BYTES"),
    ),
    Case(
        "body-over-max-request-bytes-chunked",
        lambda h: h.call(
            "alice",
            "POST",
            "/jobs",
            content=(b"x" * 8192 for _ in range(MAX_REQUEST_BYTES // 8192 + 2)),
            headers={"content-type": "application/json"},
        ),
        413,
    ),
    Case(
        "metrics-too-many-keys",
        metrics_query(keys=",".join(f"k{i}" for i in range(1001))),
        422,
        refused_naming("keys"),
    ),
    Case(
        "json-body-nested-10000-deep",
        lambda h: h.call(
            "val", "POST", "/compute/estimate", **json_body(b'{"model": ' + b"[" * 10_000 + b"]" * 10_000 + b"}")
        ),
        422,
        mentions("PLATFORM_MAX_JSON_DEPTH"),
    ),
    Case("metrics-import-malformed-lines", import_metrics, 200, good_lines_ingested_bad_reported),
    Case(
        "metrics-import-filename-traversal",
        lambda h: h.call(
            "alice",
            "POST",
            "/monitoring/hostile-import/metrics/import",
            params={"filename": "../../x.jsonl"},
            content=b"",
        ),
        422,
        refused_naming("filename"),
    ),
    Case(
        "metrics-import-job-dotdot",
        lambda h: h.call(
            "alice", "POST", "/monitoring/..%2F..%2Fescape/metrics/import", params={"filename": "m.jsonl"}, content=b""
        ),
        frozenset({404, 422}),
    ),
    Case(
        "job-name-traversal",
        lambda h: h.call("alice", "POST", "/jobs", json=h.job("../../escape")),
        422,
        refused_naming("name"),
    ),
    Case(
        "dataset-name-traversal",
        upload("../escape", "rows.jsonl", lambda: b'{"prompt": "q", "response": "a"}\n'),
        422,
        refused_naming("name"),
    ),
    Case("log-stream-outside-enum", logs("../../../etc/passwd"), 422, refused_naming("stream")),
    Case("log-download-stream-outside-enum", logs("environ", download=True), 422, refused_naming("stream")),
]

CASES = [
    *AUTHENTICATION,
    *CODE,
    *PATHS,
    *BOUNDED,
    *files.CASES,
    *bounds.CASES,
    *intake.CASES,
    *evaluation.CASES,
    *hosts.CASES,
    *pipelines.CASES,
    *job_files.CASES,
]


PEAK_RESIDENT_BYTES = 512 * 2**20
# The server's own CPU time, start-up included, across the corpus (18 s measured): each attack that used to cost it
# seconds (a backtracking tokenizer 16 s, a detection request 15 s, a 100,000-column CSV 18 s) now costs a child's.
SERVER_CPU_SECONDS = 45


def _param(case: Case):
    marks = [pytest.mark.xfail(strict=True, reason=case.bug)] if case.bug else []
    return pytest.param(case, id=case.id, marks=marks)


def test_the_table_is_large_enough():
    assert len(CASES) >= 30 and len({case.id for case in CASES}) == len(CASES)
    assert all(len(group) >= 5 for group in (AUTHENTICATION, CODE, PATHS, BOUNDED))


@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_a_hostile_request_gets_its_safe_answer(hostile, case):
    answer = case.send(hostile)
    expected = case.expect if isinstance(case.expect, frozenset) else {case.expect}
    assert answer.status in expected, (case.id, answer.status, answer.text[:2000])
    assert answer.status < 500
    if answer.status >= 400 and answer.text:  # the API's error shape (a route that does not exist: detail only)
        body = answer.json()
        assert isinstance(body["detail"], str) and isinstance(body.get("errors", []), list), answer.text
    if case.check:
        case.check(hostile, answer)


def test_afterwards_the_server_is_the_same_process_and_no_code_ran(hostile):
    process = hostile.server.process
    peak = _peak_resident_bytes(hostile.pid)
    print(f"server peak RSS {peak / 2**20:.0f} MiB")
    # The bound docs/security.md states: the bombs (hostile_cases/files.py) are decoded in the worker, never here.
    assert peak < PEAK_RESIDENT_BYTES, f"server peak RSS {peak / 2**20:.0f} MiB"
    cpu = psutil.Process(hostile.pid).cpu_times()
    print(f"server CPU time {cpu.user + cpu.system:.1f} s")
    assert cpu.user + cpu.system < SERVER_CPU_SECONDS, f"server CPU time {cpu.user + cpu.system:.1f} s"
    assert process.poll() is None, hostile.server.log_text()[-3000:]
    alive = psutil.Process(hostile.pid)
    assert alive.is_running() and alive.create_time() == hostile.create_time
    assert hostile.server.anonymous().get("/health").json()["status"] == "ok"
    assert hostile.server.api.get("/jobs").status_code == 200
    # The canaries: no directory made by `_target_`, no file touched by a shell, no module imported, nothing
    # written outside the roots.
    assert list(hostile.canary.iterdir()) == []
    assert sorted(path.name for path in hostile.outside.iterdir()) == ["evil.py", "secret.jsonl"]
    # Nothing was registered or created by an attack (the metrics import makes a job of its own).
    names = {job["name"] for job in hostile.server.api.get("/jobs").json()}
    assert names <= {"alices-job", "hostile-import"}, names
    registered = sorted(dataset["name"] for dataset in hostile.server.api.get("/datasets").json())
    assert registered == ["eval-data", "sft-data", "swap"]
    assert hostile.server.api.get("/hosts").json() == []
    assert hostile.server.api.get("/models").json() == []
    # The processes the server started (verl's validation) never got the secrets.
    for child in alive.children(recursive=True):
        environment = "\n".join(child.environ().values())
        assert not [s for s in (CANARY_SECRET, SOME_SECRET, PLAIN_CANARY) if s in environment], child.cmdline()
    # No secret of the server's environment, nor the admin token, in any answer or in the log.
    log = hostile.server.log_text()
    for secret in (CANARY_SECRET, SOME_SECRET, PLAIN_CANARY, hostile.server.admin_token):
        assert not [text for text in hostile.answers if secret in text]
        assert secret not in log
    assert OUTSIDE_TEXT not in log
    assert "Traceback" not in log, log[-5000:]


def _peak_resident_bytes(pid: int) -> int:
    """The most memory the process has held resident since it started (the kernel's high-water mark, VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM in /proc/{pid}/status")
