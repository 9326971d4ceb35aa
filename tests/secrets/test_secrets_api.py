"""The secrets API on the app itself: a value goes in encrypted and never comes back out, not in an answer, an
error, the server's log, the audit log or the database; without the right PLATFORM_SECRET_KEY nothing is stored
or used."""

import logging
import secrets
from contextlib import contextmanager
from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from fastapi.testclient import TestClient
from pydantic import ValidationError
from sqlalchemy import create_engine, text

from training_platform.api.app import create_app
from training_platform.contract.evaluation import secret_variable
from training_platform.errors import InvalidInputError
from training_platform.settings import Settings

ADMIN_TOKEN = secrets.token_urlsafe(32)
VALUE = "sk-test-" + secrets.token_hex(16)  # unique: found anywhere only if it leaked there


@contextmanager
def serving(home: Path, database_url: str, key: str | None):
    settings = Settings(home=home, database_url=database_url, admin_token=ADMIN_TOKEN, secret_key=key)
    # The server answers to loopback hosts only (DNS rebinding): not to TestClient's default "testserver".
    with TestClient(create_app(settings), base_url="http://127.0.0.1:8000/api/v1") as client:
        client.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        yield client


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'platform.db'}"


def stored_rows(database_url: str) -> list[tuple]:
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text("SELECT * FROM secrets"))]
    finally:
        engine.dispose()


def test_a_secret_is_stored_listed_replaced_and_deleted_without_ever_showing(tmp_path, database_url, caplog):
    caplog.set_level(logging.DEBUG)
    bodies = []
    with serving(tmp_path / "home", database_url, Fernet.generate_key().decode()) as client:
        made = client.post("/secrets", json={"name": "openai.key-1", "value": VALUE})
        assert made.status_code == 201, made.text
        assert set(made.json()) == {"name", "created_at", "updated_at"} and made.json()["name"] == "openai.key-1"
        listed = client.get("/secrets")
        assert listed.json() == [made.json()]
        replaced = client.post("/secrets", json={"name": "openai.key-1", "value": VALUE + "-new"})
        assert replaced.status_code == 201
        assert replaced.json()["created_at"] == made.json()["created_at"]
        assert replaced.json()["updated_at"] > made.json()["updated_at"]
        platform = client.app.state.platform
        assert platform.secrets.reveal("openai.key-1") == VALUE + "-new"
        assert platform.secrets.environment_for(["openai.key-1"]) == {secret_variable("openai.key-1"): VALUE + "-new"}
        rows = stored_rows(database_url)
        assert len(rows) == 1 and all(VALUE not in str(column) for column in rows[0])
        audit = client.get("/auth/audit", params={"resource_kind": "secret"})
        assert [(entry["actor"], entry["action"], entry["resource_name"]) for entry in audit.json()] == [
            ("admin-token", "stored", "openai.key-1")
        ] * 2, audit.text
        deleted = client.delete("/secrets/openai.key-1")
        assert deleted.status_code == 204
        assert client.get("/secrets").json() == []
        missing = client.delete("/secrets/openai.key-1")
        assert missing.status_code == 404
        bodies = [made.text, listed.text, replaced.text, audit.text, deleted.text, missing.text]
        deletions = client.get("/auth/audit", params={"resource_kind": "secret", "action": "deleted"}).json()
        assert [entry["resource_name"] for entry in deletions] == ["openai.key-1"]
        bodies.append(client.get("/auth/audit").text)
        with pytest.raises(InvalidInputError, match="no secret named 'openai.key-1'"):
            platform.secrets.environment_for(["openai.key-1"])
    assert all(VALUE not in body for body in bodies)
    assert VALUE not in caplog.text
    if database_url.startswith("sqlite:///"):
        database = Path(database_url.removeprefix("sqlite:///"))
        for file in (database, database.with_name(database.name + "-wal")):
            if file.exists():
                assert VALUE.encode() not in file.read_bytes()


def test_without_a_key_nothing_is_stored_and_the_answer_says_how_to_make_one(tmp_path, sqlite_url):
    with serving(tmp_path / "home", sqlite_url, None) as client:
        refused = client.post("/secrets", json={"name": "judge", "value": VALUE})
        assert refused.status_code == 422
        assert "PLATFORM_SECRET_KEY" in refused.json()["detail"] and "Fernet.generate_key()" in refused.json()["detail"]
        assert VALUE not in refused.text
        assert client.get("/secrets").json() == []
        with pytest.raises(InvalidInputError, match="PLATFORM_SECRET_KEY"):
            client.app.state.platform.secrets.reveal("judge")


def test_a_key_that_is_not_a_fernet_key_is_refused_at_settings_load(tmp_path):
    with pytest.raises(ValidationError) as refused:
        Settings(home=tmp_path / "home", secret_key="not-a-fernet-key-" + VALUE)
    assert "PLATFORM_SECRET_KEY" in str(refused.value) and "Fernet.generate_key()" in str(refused.value)
    assert VALUE not in str(refused.value)


def test_a_secret_stored_under_another_key_is_refused_by_name(tmp_path, sqlite_url):
    home = tmp_path / "home"
    with serving(home, sqlite_url, Fernet.generate_key().decode()) as client:
        assert client.post("/secrets", json={"name": "judge", "value": VALUE}).status_code == 201
    with serving(home, sqlite_url, Fernet.generate_key().decode()) as client:
        assert [secret["name"] for secret in client.get("/secrets").json()] == ["judge"]
        with pytest.raises(InvalidInputError, match="secret judge was encrypted with another PLATFORM_SECRET_KEY"):
            client.app.state.platform.secrets.reveal("judge")
        with pytest.raises(InvalidInputError, match="another PLATFORM_SECRET_KEY"):
            client.app.state.platform.secrets.environment_for(["judge"])
        assert client.post("/secrets", json={"name": "judge", "value": VALUE + "-again"}).status_code == 201
        assert client.app.state.platform.secrets.reveal("judge") == VALUE + "-again"


@pytest.mark.parametrize("name", ["", "-leading-dash", "has space", "slash/in", "x" * 129])
def test_a_bad_name_is_a_422_naming_the_field(tmp_path, sqlite_url, name):
    with serving(tmp_path / "home", sqlite_url, Fernet.generate_key().decode()) as client:
        response = client.post("/secrets", json={"name": name, "value": VALUE})
        assert response.status_code == 422
        assert [error["field"] for error in response.json()["errors"]] == ["name"]
        assert VALUE not in response.text
        assert client.get("/secrets").json() == []


@pytest.mark.parametrize("value", [VALUE + "x" * 16 * 1024, VALUE + "é" * 8 * 1024, {"key": VALUE}])
def test_a_bad_value_is_a_422_that_does_not_repeat_it(tmp_path, sqlite_url, caplog, value):
    caplog.set_level(logging.DEBUG)
    with serving(tmp_path / "home", sqlite_url, Fernet.generate_key().decode()) as client:
        response = client.post("/secrets", json={"name": "judge", "value": value})
        assert response.status_code == 422
        assert [error["field"] for error in response.json()["errors"]] == ["value"]
        assert VALUE not in response.text
        assert client.get("/secrets").json() == []
    assert VALUE not in caplog.text
