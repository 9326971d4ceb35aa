"""The playground through a real server: the demo model answers from a chat worker process, two models side by
side, its answer streamed as server-sent events; an endpoint streams through the server; a target that cannot
answer is a 422 before anything streams; a reader that leaves mid-answer frees the worker without killing it; at
most two workers stay warm, the least recently used making way; none outlives the server; `tplat chat` answers
once, or line by line keeping the conversation. The workers are found as the processes of the server's session
that run evaluation/chat.py."""

import json
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import pytest

from tests.support.helpers import free_port, session_members
from tests.support.openai_server import MODEL, OpenAiServer

PROMPT = "What is 2 + 3?"
WORKER_MODULE = "training_platform.evaluation.chat"


def chat(server, model: Path, prompt: str = PROMPT, **generation) -> list[dict]:
    body = {
        "target": {"kind": "model", "model": str(model)},
        "messages": [{"role": "system", "content": "Answer briefly."}, {"role": "user", "content": prompt}],
        "generation": {"max_new_tokens": 12, "temperature": 0, **generation},
    }
    with server.api.stream("POST", "/playground/chat", json=body, timeout=120) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        return [json.loads(line.removeprefix("data:")) for line in response.iter_lines() if line.startswith("data:")]


def answer(events: list[dict]) -> str:
    assert events[-1].get("done") is True, events
    text = "".join(event["text"] for event in events[:-1])
    assert events[-1]["characters"] == len(text) and events[-1]["seconds"] >= 0
    return text


def workers(pid: int) -> dict[str, psutil.Process]:
    """The chat workers among the processes of session `pid`, by the model directory each serves."""
    found = {}
    for process in session_members(pid):
        command = process.cmdline()
        if WORKER_MODULE in command:
            found[command[command.index("--model") + 1]] = process
    return found


@pytest.fixture(scope="module")
def models(demo_assets, tmp_path_factory) -> list[Path]:
    """The demo model and two copies of it: three model directories, so three workers."""
    root = tmp_path_factory.mktemp("chat-models")
    copies = [shutil.copytree(demo_assets["model"], root / name) for name in ("copy-a", "copy-b")]
    return [Path(demo_assets["model"]), *copies]


def test_two_chats_stream_side_by_side_and_a_greedy_answer_is_the_same_every_time(server, models):
    demo, copy_a, _ = models
    with ThreadPoolExecutor(2) as pool:  # as the UI compares two models: two streams at once
        first, beside = pool.map(lambda model: chat(server, model), (demo, copy_a))
    assert len([event for event in first if "text" in event]) >= 2, "the answer comes in pieces"
    assert answer(beside) == answer(first), "the copy has the same weights"
    assert answer(chat(server, demo)) == answer(first)
    assert sorted(workers(server.process.pid)) == sorted([str(demo), str(copy_a)])


def test_what_cannot_be_answered_is_a_422_naming_its_field_before_anything_streams(server, models):
    cases = [
        ({"target": {"kind": "model", "model": "job:no-such-job"}}, "target.model"),
        ({"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}, "messages"),
        ({"messages": [{"role": "user", "content": "x" * (64 * 1024 + 1)}]}, "messages"),
        ({"generation": {"n": 2}}, "generation.n"),
    ]
    for change, field in cases:
        body = {"target": {"kind": "model", "model": str(models[0])}, "messages": [{"role": "user", "content": "hi"}]}
        response = server.api.post("/playground/chat", json=body | change)
        assert response.status_code == 422, response.text
        assert [error["field"] for error in response.json()["errors"]] == [field]


def test_an_endpoint_streams_from_the_server_and_one_that_cannot_answer_is_a_422(server):
    endpoint = OpenAiServer()
    try:
        body = {
            "target": {"kind": "api", "base_url": endpoint.base_url, "model": MODEL},
            "messages": [{"role": "user", "content": PROMPT}],
        }
        with server.api.stream("POST", "/playground/chat", json=body) as response:
            events = [json.loads(line.removeprefix("data:")) for line in response.iter_lines() if line.strip()]
        assert answer(events) == f"{PROMPT}|choice 0|seed 0" and len(events) > 3
        assert endpoint.requests[-1].body["stream"] is True
        cases = [
            ({"base_url": f"http://127.0.0.1:{free_port()}/v1"}, "target.base_url"),
            ({"api_key_secret": "no-such-secret"}, "target.api_key_secret"),
        ]
        for change, field in cases:
            response = server.api.post("/playground/chat", json=body | {"target": body["target"] | change})
            assert response.status_code == 422, response.text
            assert [error["field"] for error in response.json()["errors"]] == [field]
    finally:
        endpoint.close()


def test_a_reader_that_leaves_mid_answer_frees_the_worker_for_the_next_chat(server, models):
    body = {
        "target": {"kind": "model", "model": str(models[0])},
        "messages": [{"role": "user", "content": PROMPT}],
        "generation": {"max_new_tokens": 4000, "temperature": 0},
    }
    worker = workers(server.process.pid)[str(models[0])]
    with server.api.stream("POST", "/playground/chat", json=body, timeout=120) as response:
        assert json.loads(next(response.iter_lines()).removeprefix("data:"))["text"]
    started = time.monotonic()
    assert answer(chat(server, models[0])) == answer(chat(server, models[0])), "the next chats are answered in full"
    # The rest of the long answer takes over a minute here; cancelled, it is dropped at its next token.
    assert time.monotonic() - started < 30, "the long answer went on after its reader left"
    assert workers(server.process.pid)[str(models[0])].pid == worker.pid, "cancelled, not killed"


def test_tplat_chat_prints_the_streamed_answer_and_keeps_the_conversation_line_by_line(server, models):
    expected = answer(chat(server, models[0], max_new_tokens=256))
    result = server.cli("chat", "--model", str(models[0]), "--system", "Answer briefly.", PROMPT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected + "\n"

    endpoint = OpenAiServer()  # it answers with the last message: what it was sent shows the conversation kept
    try:
        command = ["chat", "--endpoint", endpoint.base_url, "--served-model", MODEL, "--system", "Answer briefly."]
        result = subprocess.run(
            [sys.executable, "-m", "training_platform.cli.main", *command],
            input="What is 2 + 3?\nAnd 3 + 4?\n/exit\nnever asked\n",
            env=server.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        endpoint.close()
    assert result.returncode == 0, result.stderr
    assert result.stdout == "What is 2 + 3?|choice 0|seed 0\nAnd 3 + 4?|choice 0|seed 0\n"
    assert [(m["role"], m["content"]) for m in endpoint.requests[-1].body["messages"]] == [
        ("system", "Answer briefly."),
        ("user", "What is 2 + 3?"),
        ("assistant", "What is 2 + 3?|choice 0|seed 0"),
        ("user", "And 3 + 4?"),
    ]
    assert len([r for r in endpoint.requests if r.path.endswith("/chat/completions")]) == 2


def test_two_workers_stay_warm_the_least_recently_used_goes_and_none_outlives_the_server(server, models):
    warm = workers(server.process.pid)
    older, newer = sorted(warm, key=lambda model: warm[model].create_time())
    for model in (newer, older):  # the older worker is the more recently used: it stays
        answer(chat(server, Path(model)))
    answer(chat(server, models[2]))
    warm = workers(server.process.pid)
    assert sorted(warm) == sorted([older, str(models[2])])
    server.stop_server_only()
    _, alive = psutil.wait_procs(list(warm.values()), timeout=10)
    assert alive == [], "the chat workers end with the server"
    assert workers(server.process.pid) == {}
