"""The JSON-body check (step 4 of the access checks, api/security.py)."""

from starlette.requests import HTTPConnection

from training_platform.api.refusal import Refusal
from training_platform.api.routing import KnownRoute


def check_json_body(route: KnownRoute | None, connection: HTTPConnection) -> None:
    """A route that reads a JSON body refuses any other: a browser may post text/plain and forms across sites
    without asking first (a "simple" request), never application/json. Raw uploads take any type."""
    if route is None or not route.takes_json:
        return
    headers = connection.headers
    if headers.get("content-length", "0") == "0" and "transfer-encoding" not in headers:
        return  # no body: the route answers for a missing one
    media_type = headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json" and not media_type.endswith("+json"):
        raise Refusal(415, "this route takes JSON: send the body with 'content-type: application/json'")
