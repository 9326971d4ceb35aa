"""A job's live metrics over the server's WebSocket, with the generated client's base URL and token.

The generated package (training_platform_client) covers the HTTP routes only: an OpenAPI document cannot describe
a WebSocket, so this hand-written module sits beside it, where regenerating never overwrites it (docs/client.md).

    from training_platform_client import AuthenticatedClient
    from training_platform_client_stream import live_metrics

    client = AuthenticatedClient(base_url="http://127.0.0.1:8000", token="...")
    for message in live_metrics(client, "my-job"):
        print(message)
"""

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

from training_platform_client import AuthenticatedClient, Client
from websockets.exceptions import ConnectionClosedError, InvalidStatus
from websockets.sync.client import connect

LIVE_PATH = "/api/v1/monitoring/{job}/live"
# A message is one step's metrics or the job's status: far below this, unless the stream is not the platform's.
MAX_MESSAGE_BYTES = 4 * 1024 * 1024


class LiveStreamError(Exception):
    """The server refused the stream (`code` is the handshake's HTTP status: 401 without a valid token, 403 for no
    such job) or ended it with an error (`code` is the WebSocket close code: 1013 when every place is taken)."""

    def __init__(self, code: int | None, reason: str):
        super().__init__(f"live metrics stream refused or closed ({code}): {reason}")
        self.code, self.reason = code, reason


def live_url(client: AuthenticatedClient | Client, job: str, since_step: int = 0) -> str:
    """The WebSocket address of a job's live stream on the client's server (ws:// for http://, wss:// for https://)."""
    base = client.get_httpx_client().base_url
    scheme = "wss" if base.scheme == "https" else "ws"
    path = base.path.rstrip("/") + LIVE_PATH.format(job=quote(job, safe=""))
    return str(base.copy_with(scheme=scheme, path=path, params={"since_step": since_step}))


def live_metrics(client: AuthenticatedClient | Client, job: str, since_step: int = 0) -> Iterator[dict[str, Any]]:
    """The job's messages as they come: every recorded step after `since_step` first (`{"type": "metric", "data":
    {"step": ..., "<key>": value, ...}}`), then its status (`{"type": "status", "data": {...}}`) and each new step,
    and last `{"type": "finished", "status": ...}` once the job completed, failed or was cancelled, which ends the
    iteration. Raises LiveStreamError when the server refuses the stream or ends it with an error."""
    http = client.get_httpx_client()
    headers = {"Authorization": http.headers["Authorization"]} if "Authorization" in http.headers else {}
    address = live_url(client, job, since_step)
    try:
        socket = connect(
            address, additional_headers=headers, open_timeout=http.timeout.connect, max_size=MAX_MESSAGE_BYTES
        )
    except InvalidStatus as refused:
        raise LiveStreamError(
            refused.response.status_code, (refused.response.body or b"").decode(errors="replace")
        ) from None
    with socket:
        try:
            # A normal close (1000) ends the loop quietly; an error close raises.
            for frame in socket:
                message = json.loads(frame)
                yield message
                if message["type"] == "finished":
                    return
        except ConnectionClosedError as closed:
            received = closed.rcvd
            raise LiveStreamError(received.code if received else None, received.reason if received else "") from None
