"""Authentication, roles, ownership, Host/Origin checks and the audit log against a real server process."""

import hashlib
import json
import os
import sqlite3
import stat
import subprocess
import sys

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.support.helpers import ServerProcess

PASSWORD = "a-long-enough-password"
ALLOWED_ORIGIN = "http://ui.example:5173"
ALLOWED_HOST = "platform.example"


@pytest.fixture(scope="module")
def server(tmp_path_factory, demo_assets):
    process = ServerProcess(home=tmp_path_factory.mktemp("auth_home"))
    process.env.update(
        {
            "PLATFORM_ALLOWED_ORIGINS": ALLOWED_ORIGIN,
            "PLATFORM_ALLOWED_HOSTS": ALLOWED_HOST,
            "PLATFORM_LOGIN_ATTEMPTS_PER_MINUTE": "3",
            "PLATFORM_DATA_ROOTS": str(demo_assets["model"].parent),
        }
    )
    process.start()
    for name, role in (("alice", "member"), ("bob", "member"), ("val", "viewer")):
        response = process.api.post("/auth/users", json={"name": name, "password": PASSWORD, "role": role})
        assert response.status_code == 201, response.text
    yield process
    process.shutdown()


def session_client(server: ServerProcess, name: str, password: str = PASSWORD) -> httpx.Client:
    """A client holding a user's session token as its bearer token."""
    response = server.anonymous().post(
        "/auth/login", params={"token": True}, json={"username": name, "password": password}
    )
    assert response.status_code == 200, response.text
    token = response.json()["token"]
    return httpx.Client(base_url=f"{server.url}/api/v1", timeout=60, headers={"Authorization": f"Bearer {token}"})


@pytest.fixture(scope="module")
def alice(server):
    return session_client(server, "alice")


@pytest.fixture(scope="module")
def bob(server):
    return session_client(server, "bob")


@pytest.fixture(scope="module")
def val(server):
    return session_client(server, "val")


def job_body(demo_assets, name: str) -> dict:
    return dict(
        name=name,
        algorithm="sft",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        params={"learning_rate": 1e-3, "batch_size": 8, "micro_batch_size": 8, "max_steps": 3},
    )


@pytest.fixture(scope="module")
def alices_job(alice, demo_assets):
    response = alice.post("/jobs", json=job_body(demo_assets, "alices-job"))
    assert response.status_code == 201, response.text
    return response.json()


def test_every_route_of_the_openapi_document_needs_a_credential(server):
    anonymous = server.anonymous()
    document = httpx.get(f"{server.url}/openapi.json", headers=server.auth_headers, timeout=120).json()
    checked = 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if (method, path) in (("get", "/api/v1/health"), ("post", "/api/v1/auth/login")):
                continue
            url = path.removeprefix("/api/v1")
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path":
                    url = url.replace("{" + parameter["name"] + "}", "dummy")
            body = {"json": {}} if "requestBody" in operation else {}
            response = anonymous.request(method.upper(), url, **body)
            assert response.status_code == 401, (method, path, response.status_code, response.text)
            assert response.headers["www-authenticate"] == "Bearer" and response.json()["detail"]
            checked += 1
    assert checked > 50
    assert httpx.get(f"{server.url}/openapi.json", timeout=120).status_code == 401
    assert anonymous.get("/jobs", headers={"Authorization": "Bearer tplat_not-a-token"}).status_code == 401
    assert anonymous.get("/jobs", headers={"Authorization": f"Basic {server.admin_token}"}).status_code == 401
    assert anonymous.get("/nothing/here").status_code == 401  # the API's 404s are for those who may ask
    assert anonymous.get("/health").status_code == 200
    # The web UI's shell stays public so it can show its login page (503 where the UI is not built).
    assert httpx.get(f"{server.url}/jobs/some-job").status_code in (200, 503)
    assert httpx.get(f"{server.url}/docs").status_code == 200


def test_a_viewer_reads_everything_and_changes_nothing(server, val, alices_job, demo_assets):
    assert val.get("/jobs").status_code == 200
    assert val.get(f"/jobs/{alices_job['id']}").status_code == 200
    for method, path, body in (
        ("POST", "/jobs", job_body(demo_assets, "viewer-job")),
        ("POST", f"/jobs/{alices_job['id']}/start", None),
        ("DELETE", f"/jobs/{alices_job['id']}", None),
        ("POST", "/models", {"name": "viewer-model", "path": str(demo_assets["model"])}),
        ("POST", "/demo", None),
    ):
        response = val.request(method, path, json=body)
        assert response.status_code == 403, (method, path, response.text)
        assert "viewer" in response.json()["detail"]
    # Routes that only compute are open to viewers, and so are their own credentials.
    estimate = val.post("/compute/estimate", json={"model": "nonexistent"})
    assert estimate.status_code != 403
    token = val.post("/auth/tokens", json={"name": "viewer-script"})
    assert token.status_code == 201 and val.delete(f"/auth/tokens/{token.json()['id']}").status_code == 204
    assert val.get("/auth/users").status_code == 403 and val.get("/auth/audit").status_code == 403


def test_a_member_cannot_touch_another_members_job(server, alice, bob, alices_job):
    job_id = alices_job["id"]
    assert bob.get(f"/jobs/{alices_job['name']}").status_code == 200  # reading is everyone's
    for method, path in (
        ("POST", f"/jobs/{job_id}/start"),
        ("POST", f"/jobs/{alices_job['name']}/start"),  # by name too
        ("POST", f"/jobs/{job_id}/pause"),
        ("POST", f"/jobs/{job_id}/resume"),
        ("POST", f"/jobs/{job_id}/stop"),
        ("POST", f"/jobs/{job_id}/checkpoints/final/export"),
        ("POST", f"/monitoring/{job_id}/metrics/sync"),
        ("DELETE", f"/jobs/{job_id}"),
    ):
        response = bob.request(method, path)
        assert response.status_code == 403, (method, path, response.text)
        assert "belongs to alice" in response.json()["detail"]
    assert server.job(job_id)["status"] == "pending"
    assert bob.post("/jobs/no-such-job/start").status_code == 404


def test_owners_act_on_their_jobs_and_the_audit_log_says_who_did_what(server, alice, demo_assets):
    job = alice.post("/jobs", json=job_body(demo_assets, "audited-job")).json()
    stopped = alice.post(f"/jobs/{job['name']}/stop")
    assert stopped.status_code == 200, f"{stopped.text}\n{server.log_text()[-3000:]}"
    assert stopped.json()["status"] == "cancelled"
    assert alice.delete(f"/jobs/{job['id']}").status_code == 204
    entries = server.api.get("/auth/audit", params={"resource": job["id"]}).json()
    assert [(e["actor"], e["action"], e["resource_kind"], e["resource_name"]) for e in entries] == [
        ("alice", "deleted", "job", "audited-job"),
        ("alice", "stopped", "job", "audited-job"),
        ("alice", "created", "job", "audited-job"),
    ]
    assert all(entry["client"] == "127.0.0.1" for entry in entries)
    # Created and started in one request: both are in the log.
    long_job = job_body(demo_assets, "started-job")
    long_job["params"]["max_steps"] = 100_000  # still running when the stop comes
    started = alice.post("/jobs", json={**long_job, "start": True}).json()
    assert alice.post(f"/jobs/{started['id']}/stop").status_code == 200
    entries = server.api.get("/auth/audit", params={"resource": "started-job"}).json()
    assert [entry["action"] for entry in entries] == ["stopped", "started", "created"]
    assert server.api.get("/auth/audit", params={"actor": "alice", "action": "created"}).json()
    assert alice.get("/auth/audit").status_code == 403
    # A job the admin token made belongs to nobody a member is: members cannot change it, admins can.
    admins = server.create_job(**job_body(demo_assets, "admins-job"))
    assert alice.post(f"/jobs/{admins['id']}/stop").status_code == 403
    assert server.api.post(f"/jobs/{admins['id']}/stop").status_code == 200


def test_datasets_and_models_belong_to_who_registered_them(server, alice, bob, demo_assets):
    registered = alice.post("/datasets", json={"name": "alices-dpo", "path": str(demo_assets["dpo"]), "kind": "dpo"})
    assert registered.status_code == 201, registered.text
    dataset = registered.json()
    assert bob.patch(f"/datasets/{dataset['name']}", json={"description": "mine now"}).status_code == 403
    assert bob.delete(f"/datasets/{dataset['id']}").status_code == 403
    assert alice.patch(f"/datasets/{dataset['name']}", json={"description": "still mine"}).status_code == 200
    assert alice.delete(f"/datasets/{dataset['id']}").status_code == 204
    model = alice.post("/models", json={"name": "alices-model", "path": str(demo_assets["model"])})
    assert model.status_code == 201, model.text
    actions = [
        (e["action"], e["resource_kind"]) for e in server.api.get("/auth/audit", params={"actor": "alice"}).json()
    ]
    assert {("registered", "model"), ("registered", "dataset"), ("deleted", "dataset")} <= set(actions)


def test_websockets_need_a_credential_and_this_servers_origin(server, alice, alices_job):
    url = server.ws_url(f"/monitoring/{alices_job['id']}/live")
    with pytest.raises(InvalidStatus) as missing:
        connect(url)
    assert missing.value.response.status_code == 401
    with pytest.raises(InvalidStatus) as foreign:
        connect(url, additional_headers={**server.auth_headers, "Origin": "http://evil.example"})
    assert foreign.value.response.status_code == 403
    with pytest.raises(InvalidStatus) as rebound:
        connect(url, additional_headers={**server.auth_headers, "Host": "evil.example"})
    assert rebound.value.response.status_code == 400
    with connect(url, additional_headers={**server.auth_headers, "Origin": server.url}) as socket:
        assert json.loads(socket.recv(timeout=10))["type"] == "status"
    cookie = login_cookie(server, "bob")
    with connect(url, additional_headers={"Cookie": f"tplat_session={cookie}", "Origin": server.url}) as socket:
        assert json.loads(socket.recv(timeout=10))["type"] == "status"


def login_cookie(server: ServerProcess, name: str) -> str:
    response = server.anonymous().post("/auth/login", json={"username": name, "password": PASSWORD})
    assert response.status_code == 200, response.text
    assert "token" not in response.json() or response.json()["token"] is None  # only asked for with ?token=true
    return response.cookies["tplat_session"]


def test_the_host_header_must_name_this_server(server):
    anonymous = server.anonymous()
    assert anonymous.get("/health", headers={"Host": "evil.example"}).status_code == 400
    assert httpx.get(f"{server.url}/", headers={"Host": f"evil.example:{server.port}"}).status_code == 400
    assert server.api.get("/jobs", headers={"Host": "evil.example"}).status_code == 400
    for host in (f"localhost:{server.port}", f"127.0.0.1:{server.port}", f"{ALLOWED_HOST}:{server.port}"):
        assert anonymous.get("/health", headers={"Host": host}).status_code == 200, host


def test_cross_origin_writes_are_refused(server):
    estimate = {"model": "nonexistent"}
    for origin in (
        "http://evil.example",
        "null",
        f"http://127.0.0.1:{server.port + 1}",
        f"https://127.0.0.1:{server.port}",
    ):
        response = server.api.post("/compute/estimate", json=estimate, headers={"Origin": origin})
        assert response.status_code == 403, origin
        assert "cross-origin" in response.json()["detail"]
    assert server.api.post("/jobs/x/stop", headers={"Origin": "http://evil.example"}).status_code == 403
    for origin in (server.url, f"http://localhost:{server.port}", ALLOWED_ORIGIN):
        headers = (
            {"Origin": origin, "Host": f"localhost:{server.port}"} if "localhost" in origin else {"Origin": origin}
        )
        assert server.api.post("/compute/estimate", json=estimate, headers=headers).status_code != 403, origin
    # Reading across origins is the browser's business (no CORS headers are ever sent).
    assert server.api.get("/jobs", headers={"Origin": "http://evil.example"}).status_code == 200
    login = server.anonymous().post(
        "/auth/login", json={"username": "alice", "password": PASSWORD}, headers={"Origin": "http://evil.example"}
    )
    assert login.status_code == 403


def test_json_routes_refuse_other_bodies_and_uploads_still_work(server, tmp_path):
    body = json.dumps({"name": "plain"}).encode()
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        headers = {"content-type": content_type} if content_type else {}
        response = server.api.post("/jobs", content=body, headers=headers)
        assert response.status_code == 415, (content_type, response.text)
    rows = "".join(json.dumps({"prompt": f"q{i}", "response": f"a{i}"}) + "\n" for i in range(8))
    cookie = login_cookie(server, "alice")
    upload = server.anonymous().post(
        "/datasets/upload",
        params={"name": "browser-upload", "kind": "sft", "filename": "rows.jsonl"},
        content=rows.encode(),
        headers={"content-type": "application/octet-stream", "Origin": server.url, "Cookie": f"tplat_session={cookie}"},
    )
    assert upload.status_code == 201, upload.text
    audit = server.api.get("/auth/audit", params={"resource": "browser-upload"}).json()
    assert [(e["actor"], e["action"]) for e in audit] == [("alice", "registered")]


def test_login_sets_a_strict_session_cookie_and_logout_ends_it(server):
    client = server.anonymous()
    response = client.post("/auth/login", json={"username": "alice", "password": PASSWORD})
    assert response.json()["user"] == {"name": "alice", "role": "member"}
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie and "secure" not in cookie
    assert client.get("/auth/me").json() == {"name": "alice", "role": "member", "via": "session"}
    old_session = client.cookies["tplat_session"]
    assert client.post("/auth/logout").status_code == 204
    assert "tplat_session" not in client.cookies
    assert server.anonymous().get("/auth/me", headers={"Cookie": f"tplat_session={old_session}"}).status_code == 401
    wrong = server.anonymous().post("/auth/login", json={"username": "alice", "password": "not-the-password"})
    assert wrong.status_code == 401 and wrong.json()["detail"] == "wrong user name or password"


def test_failed_logins_are_rate_limited(server):
    server.api.post("/auth/users", json={"name": "limited", "password": PASSWORD, "role": "viewer"})
    client = server.anonymous()
    # Uvicorn believes X-Forwarded-For from loopback (a local proxy): each test address is a client of its own.
    first, second = {"X-Forwarded-For": "10.9.9.9"}, {"X-Forwarded-For": "10.9.9.10"}
    for _ in range(3):
        response = client.post("/auth/login", json={"username": "limited", "password": "wrong-one"}, headers=first)
        assert response.status_code == 401
    refused = client.post("/auth/login", json={"username": "limited", "password": PASSWORD}, headers=first)
    assert refused.status_code == 429, refused.text
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    # The user name is spent from every address; the address for every user name.
    assert (
        client.post("/auth/login", json={"username": "limited", "password": PASSWORD}, headers=second).status_code
        == 429
    )
    assert client.post("/auth/login", json={"username": "val", "password": PASSWORD}, headers=first).status_code == 429
    assert client.post("/auth/login", json={"username": "val", "password": PASSWORD}, headers=second).status_code == 200
    failed = server.api.get("/auth/audit", params={"actor": "limited", "action": "login failed"}).json()
    assert len(failed) == 3 and failed[0]["client"] == "10.9.9.9"


def test_tokens_are_shown_once_and_stored_as_their_hash(server, alice):
    created = alice.post("/auth/tokens", json={"name": "laptop", "expires_days": 30})
    assert created.status_code == 201
    token = created.json()
    assert token["token"].startswith("tplat_") and token["user"] == "alice" and token["expires_at"]
    listed = {t["id"]: t for t in alice.get("/auth/tokens").json()}
    assert "token" not in listed[token["id"]] and token["token"].startswith(listed[token["id"]]["prefix"])
    assert all(t["user"] == "alice" for t in listed.values())
    assert token["id"] in {t["id"] for t in server.api.get("/auth/tokens").json()}  # admins see every token
    with sqlite3.connect(server.home / "platform.db") as database:
        rows = database.execute("SELECT * FROM api_tokens").fetchall()
    assert any(hashlib.sha256(token["token"].encode()).hexdigest() in row for row in rows)
    assert not any(token["token"] in str(value) for row in rows for value in row)
    headers = {"Authorization": f"Bearer {token['token']}"}
    assert server.anonymous().get("/auth/me", headers=headers).json()["via"] == "token"
    assert alice.delete(f"/auth/tokens/{token['id']}").status_code == 204
    assert server.anonymous().get("/auth/me", headers=headers).status_code == 401
    actions = server.api.get("/auth/audit", params={"resource": token["id"]}).json()
    assert [e["action"] for e in actions] == ["token revoked", "token created"]


def test_users_are_managed_by_admins(server, alice):
    assert alice.post("/auth/users", json={"name": "mallory", "password": PASSWORD}).status_code == 403
    assert alice.patch("/auth/users/alice", json={"role": "admin"}).status_code == 403
    created = server.api.post("/auth/users", json={"name": "temp", "password": PASSWORD, "role": "viewer"})
    assert created.json()["role"] == "viewer"
    assert server.api.post("/auth/users", json={"name": "temp", "password": PASSWORD}).status_code == 409
    short = server.api.post("/auth/users", json={"name": "short", "password": "x"})
    assert short.status_code == 422 and short.json()["errors"][0]["field"] == "password"
    temp = session_client(server, "temp")
    assert server.api.patch("/auth/users/temp", json={"disabled": True}).json()["disabled"] is True
    assert temp.get("/auth/me").status_code == 401
    names = {user["name"] for user in server.api.get("/auth/users").json()}
    assert {"admin", "alice", "bob", "val", "temp"} <= names


def test_the_first_start_made_an_admin_whose_password_only_the_owner_reads(server):
    path = server.admin_password_file
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert f"log in at {server.url} as admin with the password in {path}" in server.log_text()
    assert path.read_text().strip() not in server.log_text()
    admin = session_client(server, "admin", path.read_text().strip())
    assert admin.get("/auth/me").json() == {"name": "admin", "role": "admin", "via": "session"}


def test_the_cli_logs_in_saves_a_private_token_and_logs_out(server, tmp_path):
    env = {key: value for key, value in server.env.items() if key not in ("PLATFORM_TOKEN", "PLATFORM_ADMIN_TOKEN")}
    env["PLATFORM_CONFIG"] = str(tmp_path / "tplat" / "config.toml")

    def tplat(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "training_platform.cli.main", *args]
        return subprocess.run(command, env=env, input=stdin, capture_output=True, text=True, timeout=120)

    refused = tplat("jobs", "list")
    assert refused.returncode == 1 and "not logged in: run `tplat auth login` or set PLATFORM_TOKEN" in refused.stderr
    wrong = tplat("auth", "login", "--user", "bob", "--password-stdin", stdin="wrong-password\n")
    assert wrong.returncode == 1 and "wrong user name or password" in wrong.stderr
    login = tplat("auth", "login", "--user", "bob", "--password-stdin", stdin=PASSWORD + "\n")
    assert login.returncode == 0, login.stderr
    config = tmp_path / "tplat" / "config.toml"
    assert stat.S_IMODE(os.stat(config).st_mode) == 0o600 and "tplat_" in config.read_text()
    assert "bob (member, by token)" in tplat("auth", "whoami").stdout
    assert tplat("jobs", "list").returncode == 0
    assert any(t["name"].startswith("tplat on") for t in json.loads(tplat("auth", "tokens", "list", "--json").stdout))
    not_admin = tplat("auth", "users", "list")
    assert not_admin.returncode == 1 and "403" in not_admin.stderr
    assert tplat("auth", "logout").returncode == 0
    assert tplat("jobs", "list").returncode == 1
    assert "[servers" not in config.read_text()
    # The environment's token comes first.
    env["PLATFORM_TOKEN"] = server.admin_token
    listed = tplat("auth", "users", "create", "carl", "--role", "viewer", "--password-stdin", stdin=PASSWORD + "\n")
    assert listed.returncode == 0, listed.stderr
    assert "carl" in {user["name"] for user in json.loads(tplat("auth", "users", "list", "--json").stdout)}
    audit = json.loads(tplat("auth", "audit", "--actor", "admin-token", "--json").stdout)
    assert ("user created", "carl") in {(entry["action"], entry["resource_name"]) for entry in audit}


def test_serve_refuses_a_network_address_without_authentication(tmp_path):
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PLATFORM_ADMIN_TOKEN", "PLATFORM_DATABASE_URL", "PLATFORM_HOST")
    }
    env["PLATFORM_HOME"] = str(tmp_path / "home")
    command = [sys.executable, "-m", "training_platform.cli.main", "serve", "--host", "0.0.0.0", "--port", "1"]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "refusing to serve on 0.0.0.0 without authentication" in result.stderr.replace("\n", " ")
