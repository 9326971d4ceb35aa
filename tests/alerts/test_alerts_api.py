"""The alerts API on the app itself (its lifespan starts the delivery worker), on SQLite and PostgreSQL."""

import secrets

import pytest
from fastapi.testclient import TestClient

from tests.alerts.support import LOOPBACK, event
from tests.support.helpers import wait_until
from training_platform.api.app import create_app
from training_platform.settings import Settings

ADMIN_TOKEN = secrets.token_urlsafe(32)
PASSWORD = "a-long-enough-password"


@pytest.fixture
def client(tmp_path, database_url):
    settings = Settings(
        home=tmp_path / "home",
        database_url=database_url,
        admin_token=ADMIN_TOKEN,
        alert_timeout_seconds=2,
        alert_backoff_seconds=0.01,
        alert_backoff_max_seconds=0.05,
        alert_allowed_networks=[LOOPBACK],
    )
    # The server answers to loopback hosts only (DNS rebinding): not to TestClient's default "testserver".
    with TestClient(create_app(settings), base_url="http://127.0.0.1:8000/api/v1") as client:
        client.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        yield client


def test_targets_are_added_read_tested_and_deleted(client, receiver):
    made = client.post(
        "/alerts/targets", json={"name": "ops", "url": f"{receiver.url}/T0/B0/secret", "format": "slack"}
    )
    assert made.status_code == 201, made.text
    target = made.json()
    assert target["url"] == f"{receiver.url}/…" and target["severities"] == ["warning", "critical"]
    assert client.get("/alerts/targets").json() == [target]
    assert client.get("/alerts/targets/ops").json() == client.get(f"/alerts/targets/{target['id']}").json() == target
    changed = client.patch("/alerts/targets/ops", json={"severities": ["critical"], "kinds": ["non_finite"]})
    assert changed.status_code == 200 and changed.json()["severities"] == ["critical"]
    tested = client.post("/alerts/targets/ops/test")  # the receiver fails a delivery's first two requests
    assert tested.status_code == 200 and tested.json()["ok"] is False and tested.json()["status_code"] == 500
    [delivery] = client.get("/alerts/targets/ops/deliveries").json()
    assert delivery["status"] == "failed" and delivery["kind"] == "test" and len(delivery["attempts"]) == 1
    assert "secret" not in str(client.get("/alerts/targets").json())
    assert client.delete("/alerts/targets/ops").status_code == 204
    assert client.get("/alerts/targets/ops").status_code == 404
    assert client.post("/alerts/targets/ops/test").status_code == 404


BAD_TARGETS = [
    ({"url": "ftp://files.example/hook"}, "url", "must be an http or https URL"),
    ({"url": "file:///etc/passwd"}, "url", "must be an http or https URL"),
    ({"url": "http://"}, "url", "must name a host"),
    ({"format": "teams"}, "format", "'generic', 'slack' or 'feishu'"),
    ({"severities": ["fatal"]}, "severities.0", "'info', 'warning' or 'critical'"),
    ({"job": "no-such-job"}, "job", "no job with id or name 'no-such-job'"),
    ({"name": "bad name!"}, "name", "use letters, digits, '.', '_' and '-' only"),
]


def test_a_bad_target_is_a_422_naming_the_field(client):
    for change, field, fragment in BAD_TARGETS:
        response = client.post("/alerts/targets", json={"name": "ops", "url": "https://example.com/hook", **change})
        assert response.status_code == 422, (change, response.text)
        errors = {error["field"]: error["message"] for error in response.json()["errors"]}
        assert field in errors and fragment in errors[field], (change, errors)
        assert field in response.json()["detail"]
    assert client.get("/alerts/targets").json() == []


def test_the_server_delivers_in_the_background_with_retries(client, receiver):
    response = client.post("/alerts/targets", json={"name": "ops", "url": receiver.url})
    assert response.status_code == 201
    assert client.app.state.platform.alerts.notify(event("finding:1:critical")) == 1
    [delivery] = wait_until(
        lambda: [d for d in client.get("/alerts/targets/ops/deliveries").json() if d["status"] == "delivered"],
        30,
        interval=0.02,
        message="the delivery",
    )
    assert [a["status_code"] for a in delivery["attempts"]] == [500, 500, 200]
    [accepted] = receiver.accepted()
    assert accepted.key == "finding:1:critical" and accepted.body["link"] == "http://127.0.0.1:8000/jobs/demo-grpo"


def test_members_read_targets_but_only_admins_change_them(client):
    made = client.post("/auth/users", json={"name": "mia", "password": PASSWORD, "role": "member"})
    assert made.status_code == 201, made.text
    login = client.post("/auth/login", params={"token": True}, json={"username": "mia", "password": PASSWORD})
    client.cookies.clear()
    member = {"Authorization": f"Bearer {login.json()['token']}"}
    assert client.post("/alerts/targets", json={"name": "ops", "url": "https://example.com/h"}).status_code == 201
    assert client.get("/alerts/targets", headers=member).status_code == 200
    assert client.get("/alerts/targets/ops/deliveries", headers=member).status_code == 200
    for method, path, body in (
        ("POST", "/alerts/targets", {"name": "mine", "url": "http://169.254.169.254/latest"}),
        ("PATCH", "/alerts/targets/ops", {"enabled": False}),
        ("POST", "/alerts/targets/ops/test", None),
        ("DELETE", "/alerts/targets/ops", None),
    ):
        response = client.request(method, path, json=body, headers=member)
        assert response.status_code == 403, (method, path, response.text)
    assert [t["name"] for t in client.get("/alerts/targets").json()] == ["ops"]
