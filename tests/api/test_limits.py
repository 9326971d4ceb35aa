"""Bounded input over HTTP (docs/security.md, "Limits"): request bodies by size and JSON depth, before a route runs
(uploads keep their own limit); numbers beyond their range are a 422, never a 500 or seconds of CPU; WebSockets by
count and by what a client sends."""

import asyncio
import secrets
import time
from typing import Annotated

import pytest
from fastapi import Body, FastAPI, Request
from fastapi.testclient import TestClient
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect

from tests.support.jobs import add_job
from training_platform.api.limits import BodyLimits, install_limits
from training_platform.contract.params import PARAMS_BY_ALGORITHM, Algorithm, LoraParams, parse_params
from training_platform.jobs.states import JobStatus
from training_platform.metrics.live import CLIENT_MESSAGE_BYTES, TOO_BIG, TRY_AGAIN_LATER, finished_message
from training_platform.settings import Settings

MAX_BYTES = 4096


# ---- the body limits, on an app of their own ----------------------------------------------------------------


@pytest.fixture(scope="module")
def small_app() -> TestClient:
    app = FastAPI()
    install_limits(app, Settings(max_request_bytes=MAX_BYTES, max_json_depth=8))

    @app.post("/echo")
    async def echo(body: dict) -> dict:
        return {"keys": len(body)}

    @app.post("/api/v1/datasets/upload")
    async def upload(request: Request) -> dict:
        return {"size": sum([len(chunk) async for chunk in request.stream()])}

    @app.post("/api/v1/monitoring/{job}/metrics/import")
    async def import_metrics(job: str, request: Request) -> dict:
        return {"size": sum([len(chunk) async for chunk in request.stream()])}

    return TestClient(app)


def test_a_body_within_the_limits_reaches_the_route(small_app):
    answer = small_app.post("/echo", json={"a": [[[1]]], "b": "x" * 1000})
    assert answer.status_code == 200 and answer.json() == {"keys": 2}


def test_a_body_over_the_limit_is_413_by_its_length_or_by_what_arrives(small_app):
    declared = small_app.post(
        "/echo", content=b"{" + b" " * MAX_BYTES + b"}", headers={"content-type": "application/json"}
    )
    assert declared.status_code == 413
    assert "PLATFORM_MAX_REQUEST_BYTES" in declared.json()["detail"] and declared.json()["errors"][0]["field"] == "body"

    def chunks():  # no Content-Length: the bytes are counted as they come
        yield b'{"a": "'
        for _ in range(10):
            yield b"x" * 1000
        yield b'"}'

    streamed = small_app.post("/echo", content=chunks(), headers={"content-type": "application/json"})
    assert streamed.status_code == 413


def test_a_lying_content_length_does_not_get_past_the_count():
    """The server hands over what arrives whatever the header said; the middleware counts what it receives."""
    seen = []

    async def route(scope, receive, send):
        seen.append(await receive())

    limits = BodyLimits(route, max_bytes=10, max_depth=8)
    messages = iter([{"type": "http.request", "body": b"x" * 8, "more_body": True},
                     {"type": "http.request", "body": b"x" * 8, "more_body": False}])  # fmt: skip
    sent = []

    async def receive():
        return next(messages)

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "path": "/echo", "method": "POST", "headers": [(b"content-length", b"5")]}
    asyncio.run(limits(scope, receive, send))
    assert seen == [] and sent[0]["status"] == 413


def test_uploads_keep_their_own_limit(small_app):
    body = b"x" * (MAX_BYTES * 4)
    assert small_app.post("/api/v1/datasets/upload", content=body).json() == {"size": len(body)}
    assert small_app.post("/api/v1/monitoring/run-1/metrics/import", content=body).json() == {"size": len(body)}


def test_json_nested_deeper_than_the_limit_is_422_before_it_is_parsed(small_app):
    answer = small_app.post("/echo", content=b'{"a": ' + b"[" * 9 + b"]" * 9 + b"}")
    assert answer.status_code == 422 and "PLATFORM_MAX_JSON_DEPTH" in answer.json()["detail"]
    # Brackets inside strings are text, not nesting.
    answer = small_app.post("/echo", json={"a": "[" * 100, "b": '\\"[[[[[[[[[['})
    assert answer.status_code == 200


# ---- numbers and WebSockets on the platform's app -----------------------------------------------------------


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    from training_platform.api.app import create_app

    token = secrets.token_urlsafe(32)
    settings = Settings(
        home=tmp_path_factory.mktemp("limits_home"),
        admin_token=token,
        allowed_hosts=["testserver"],
        max_websockets=1,
        embedding_cpu_threads=1,
    )
    with TestClient(create_app(settings), headers={"authorization": f"Bearer {token}"}) as client:
        yield client


def test_steps_beyond_a_64_bit_column_are_422_not_500(api):
    for query in ("start_step=9223372036854775808", "end_step=99999999999999999999999", "max_points=" + "9" * 30):
        answer = api.get(f"/api/v1/monitoring/nope/metrics?{query}")
        assert answer.status_code == 422, (query, answer.text)
    assert api.get(f"/api/v1/datasets/x/rows?offset={2**63}").status_code == 422
    assert api.get(f"/api/v1/jobs?offset={2**63}").status_code == 422


def test_a_huge_sequence_length_is_refused_at_once(api):
    started = time.monotonic()
    answer = api.post("/api/v1/compute/recommend", json={"model": "Qwen2.5-0.5B", "seq_len": 10**200})
    assert answer.status_code == 422 and answer.json()["errors"][0]["field"] == "seq_len"
    assert time.monotonic() - started < 2


@pytest.mark.parametrize("algorithm", list(Algorithm))
def test_every_number_of_a_jobs_parameters_is_bounded(algorithm):
    """Each int or float field has an upper bound: 10**30 is refused, naming the field."""
    fields = PARAMS_BY_ALGORITHM[algorithm].model_fields
    numeric = [name for name, info in fields.items() if info.annotation in (int, float, int | None, float | None)]
    assert {"batch_size", "micro_batch_size", "max_steps", "num_gpus", "seed"} <= set(numeric)
    for name in numeric:
        with pytest.raises(ValidationError) as caught:
            parse_params(algorithm, {name: 10**30, "reward_model_path": "/m"})
        assert name in {str(error["loc"][0]) for error in caught.value.errors()}, name
    lora = LoraParams.model_fields
    for name in [n for n, info in lora.items() if info.annotation in (int, float, int | None)]:
        with pytest.raises(ValidationError):
            LoraParams.model_validate({name: 10**30})


def _pending_job(api) -> str:
    platform = api.app.state.platform
    return add_job(platform.jobs.store, platform.settings.jobs_dir, JobStatus.PENDING).id


def _finish(api, job_id: str, viewer) -> None:
    """End a viewer's stream from the server's side, as a job's end does: the test client would otherwise cancel
    the handler while it still runs."""
    api.app.state.platform.metrics.hub.publish_threadsafe(job_id, finished_message("completed"))
    while viewer.receive_json()["type"] != "finished":
        pass


def test_websockets_beyond_the_limit_are_told_to_come_back_later(api):
    job_id = _pending_job(api)
    with api.websocket_connect(f"/api/v1/monitoring/{job_id}/live") as first:
        assert first.receive_json()["type"] == "status"
        for kind in ("live", "playback"):
            with api.websocket_connect(f"/api/v1/monitoring/{job_id}/{kind}") as refused:
                with pytest.raises(WebSocketDisconnect) as closed:
                    refused.receive_json()
                assert closed.value.code == TRY_AGAIN_LATER and "PLATFORM_MAX_WEBSOCKETS" in closed.value.reason
        _finish(api, job_id, first)
    # The slot is given back when a viewer leaves.
    with api.websocket_connect(f"/api/v1/monitoring/{job_id}/live") as again:
        assert again.receive_json()["type"] == "status"
        _finish(api, job_id, again)


def test_a_viewer_sending_more_than_a_keep_alive_is_closed(api):
    job_id = _pending_job(api)
    with api.websocket_connect(f"/api/v1/monitoring/{job_id}/live") as viewer:
        assert viewer.receive_json()["type"] == "status"
        viewer.send_text("ping")  # a keep-alive is fine
        viewer.send_text("x" * (CLIENT_MESSAGE_BYTES + 1))
        with pytest.raises(WebSocketDisconnect) as closed:
            viewer.receive_json()
        assert closed.value.code == TOO_BIG


def test_a_live_step_beyond_the_range_is_refused(api):
    job_id = _pending_job(api)
    with pytest.raises(WebSocketDisconnect):
        with api.websocket_connect(f"/api/v1/monitoring/{job_id}/live?since_step={2**63}") as viewer:
            viewer.receive_json()


def test_a_large_body_is_measured_too():
    app = FastAPI()
    install_limits(app, Settings(max_json_depth=8))

    @app.post("/echo")
    async def echo(body: Annotated[list, Body()]) -> dict:
        return {"items": len(body)}

    client = TestClient(app)
    flat = b"[" + b",".join([b"[[1]]"] * 200_000) + b"]"  # 1.2 MB, many brackets, 3 deep
    json_type = {"content-type": "application/json"}
    assert client.post("/echo", content=flat, headers=json_type).json() == {"items": 200_000}
    deep = flat[:-1] + b"," + b"[" * 9 + b"]" * 9 + b"]"
    assert client.post("/echo", content=deep, headers=json_type).status_code == 422
