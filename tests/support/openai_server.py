"""An OpenAI-compatible server on loopback for the tests: the response shapes of OpenAI's API, scripted failures,
a held request to see concurrency, and every request recorded."""

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL = "tiny-chat"


@dataclass
class Recorded:
    path: str
    body: dict
    authorization: str | None
    started: float


@dataclass
class Scripted:
    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: dict = field(default_factory=lambda: {"error": {"message": "busy"}})


class OpenAiServer:
    """A ThreadingHTTPServer on 127.0.0.1 answering /v1/models, /v1/chat/completions and /v1/completions.

    The first requests get the `script`'s answers in turn; every answer after it is a completion whose text names
    its prompt, choice and seed. Each request is held up to `hold` seconds, or until more than `limit` are in flight,
    so that requests overlap and a client keeping no limit is seen to exceed it; the most ever in flight is kept."""

    def __init__(
        self,
        key: str | None = None,
        script: list[Scripted] = (),
        max_choices: int | None = None,
        limit: int = 0,
        hold: float = 0,
    ):
        self.key, self.script, self.max_choices = key, list(script), max_choices
        self.limit, self.hold = limit, hold
        self.requests: list[Recorded] = []
        self.in_flight = self.max_in_flight = 0
        self.condition = threading.Condition()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                if not server.authorized(self.headers.get("authorization")):
                    return self.answer(
                        401, {"error": {"message": f"Incorrect API key: {self.headers['authorization']}"}}
                    )
                self.answer(200, {"object": "list", "data": [{"id": MODEL, "object": "model"}, {"id": "other"}]})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                authorization = self.headers.get("authorization")
                with server.condition:
                    server.requests.append(Recorded(self.path, body, authorization, time.monotonic()))
                    scripted = server.script.pop(0) if server.script else None
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                    server.condition.notify_all()
                    # A client within its limit waits here out the hold; one beyond it ends the hold at once.
                    server.condition.wait_for(lambda: server.in_flight > server.limit, timeout=server.hold)
                try:
                    if not server.authorized(authorization):
                        self.answer(401, {"error": {"message": f"Incorrect API key provided: {authorization}"}})
                    elif scripted is not None:
                        self.answer(scripted.status, scripted.body, scripted.headers)
                    elif body.get("stream"):
                        self.stream(body)
                    else:
                        self.answer(200, server.completion(self.path, body))
                finally:
                    with server.condition:
                        server.in_flight -= 1

            def answer(self, status: int, body: dict, headers: dict[str, str] | None = None):
                raw = json.dumps(body).encode()
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def stream(self, body: dict):
                text = server.text(self.path, body, 0)
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.end_headers()
                for start in range(0, len(text), 3):
                    choice = {"index": 0, "delta": {"content": text[start : start + 3]}}
                    self.wfile.write(f"data: {json.dumps({'choices': [choice]})}\n\n".encode())
                    self.wfile.flush()
                self.wfile.write(b": a comment line\n\ndata: [DONE]\n\n")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def authorized(self, authorization: str | None) -> bool:
        return self.key is None or authorization == f"Bearer {self.key}"

    def text(self, path: str, body: dict, index: int) -> str:
        prompt = body["messages"][-1]["content"] if path.endswith("/chat/completions") else body["prompt"]
        return f"{prompt}|choice {index}|seed {body['seed']}"

    def completion(self, path: str, body: dict) -> dict:
        count = min(body["n"], self.max_choices or body["n"])
        chat = path.endswith("/chat/completions")
        choices = [
            {"index": i, "message": {"role": "assistant", "content": self.text(path, body, i)}, "finish_reason": "stop"}
            if chat
            else {"index": i, "text": self.text(path, body, i), "finish_reason": "stop"}
            for i in range(count)
        ]
        return {"object": "chat.completion" if chat else "text_completion", "choices": choices[::-1]}  # any order

    def close(self):
        self.server.shutdown()
        self.server.server_close()
