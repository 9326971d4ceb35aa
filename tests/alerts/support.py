"""A webhook receiver on loopback, and the events the tests announce."""

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from training_platform.alerts.schemas import AlertEvent

# The receivers' network: a server delivering to them allows it (PLATFORM_ALERT_ALLOWED_NETWORKS).
LOOPBACK = "127.0.0.1/32"


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict
    status: int  # what the receiver answered; 0 while it has not

    @property
    def key(self) -> str | None:
        return self.headers.get("idempotency-key")


# (requests of the same delivery (path and event key) before this one, the request) -> (status, body)
Respond = Callable[[int, Received], tuple[int, bytes]]


def fails_first(count: int, status: int = 500) -> Respond:
    """HTTP `status` for the first `count` requests of each delivery (path and event key), then 200."""
    return lambda before, _request: (status, b"boom") if before < count else (200, b"ok")


class Receiver:
    """An HTTP server on 127.0.0.1 that keeps every request it gets; `respond` decides each answer."""

    def __init__(self, respond: Respond = fails_first(0)):
        self.respond = respond
        self.requests: list[Received] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                request = Received(self.path, {k.lower(): v for k, v in self.headers.items()}, json.loads(raw), 0)
                with receiver.lock:
                    before = sum(1 for r in receiver.requests if (r.path, r.key) == (request.path, request.key))
                    receiver.requests.append(request)
                # Outside the lock: an answer held back (a timeout test) must not hold up the next request.
                status, answer = receiver.respond(before, request)
                request.status = status
                self.send_response(request.status)
                self.send_header("content-type", "application/json" if answer.startswith(b"{") else "text/plain")
                self.send_header("content-length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def accepted(self) -> list[Received]:
        with self.lock:
            return [r for r in self.requests if 200 <= r.status < 300]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def event(key: str = "finding:1:critical", **fields) -> AlertEvent:
    defaults = dict(
        event_key=key,
        job_id=None,
        job_name="demo-grpo",
        kind="non_finite",
        severity="critical",
        step=12,
        title="demo-grpo: non finite (critical)",
        message="loss is NaN at step 12.",
        suggestions=["Lower the learning rate.", "Resume from the last checkpoint."],
        url_path="/jobs/demo-grpo",
    )
    return AlertEvent(**{**defaults, **fields})
