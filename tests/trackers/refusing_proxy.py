"""An HTTP proxy in front of a real tracker that the test turns into a failing one: it refuses requests (503,
nothing forwarded) or loses answers (the request forwarded and carried out, its answer replaced by a 502), so an
export meets both ways a tracker fails."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx


class RefusingProxy:
    def __init__(self, target: str):
        self.target = target
        self.refusing = False
        self.answers_to_lose: dict[str, int] = {}  # route (the path's end, "runs/create") → answers to lose
        self.refused = 0
        self.lost = 0
        self._lock = threading.Lock()
        self._client = httpx.Client(base_url=target, timeout=60)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._client.close()

    def _decide(self, path: str) -> str:
        route = path.split("?")[0].removeprefix("/api/2.0/mlflow/")
        with self._lock:
            if self.refusing:
                self.refused += 1
                return "refuse"
            if self.answers_to_lose.get(route):
                self.answers_to_lose[route] -= 1
                self.lost += 1
                return "lose"
            return "forward"

    def _handler(self):
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                self._relay()

            def do_POST(self):
                self._relay()

            def _relay(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                decision = proxy._decide(self.path)
                if decision == "refuse":
                    return self._answer(503, b'{"error_code": "TEMPORARILY_UNAVAILABLE"}')
                headers = {"Content-Type": self.headers.get("Content-Type", "application/json")}
                answer = proxy._client.request(self.command, self.path, content=body, headers=headers)
                if decision == "lose":
                    return self._answer(502, b"")
                return self._answer(answer.status_code, answer.content)

            def _answer(self, status: int, content: bytes):
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            def log_message(self, *args):
                pass

        return Handler
