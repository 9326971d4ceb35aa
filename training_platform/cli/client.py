"""A thin HTTP client for the CLI: every error becomes a clear message and an exit code.

Its requests go through the generated Python client (clients/python, docs/client.md), which holds the base URL, the
token and the timeout; `call` runs one of its typed operations.
"""

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

import httpx
import typer
from rich.console import Console
from training_platform_client import AuthenticatedClient, Client
from training_platform_client.types import Response

err_console = Console(stderr=True)


NOT_LOGGED_IN = "not logged in: run `tplat auth login` or set PLATFORM_TOKEN"
API_PREFIX = "/api/v1"
Parsed = TypeVar("Parsed")


class ApiClient:
    def __init__(self, base_url: str, token: str | None = None, timeout: float = 60.0):
        self.base_url = base_url.rstrip("/")
        options: dict[str, Any] = {"base_url": self.base_url, "timeout": httpx.Timeout(timeout)}
        self.generated = AuthenticatedClient(token=token, **options) if token else Client(**options)
        self._http = self.generated.get_httpx_client()

    def call(self, operation: Callable[..., Response[Parsed]], *args: Any, **kwargs: Any) -> Parsed:
        """What a generated operation's `sync_detailed` answers, parsed (`call(get_job.sync_detailed, name)`); an
        error is printed and ends the command."""
        try:
            response = operation(*args, client=self.generated, **kwargs)
        except httpx.TransportError:
            self._unreachable()
        if response.status_code >= 400:
            self._fail(response.status_code, response.content)
        return response.parsed

    def request(self, method: str, path: str, raw: bool = False, **kwargs: Any) -> Any:
        """The response's JSON (or text; its bytes with `raw`); an error is printed and ends the command."""
        response = self.send(method, path, **kwargs)
        if response.is_error:
            self.fail(response, path)
        if response.status_code == 204:
            return None
        if raw:
            return response.content
        if response.headers.get("content-type", "").startswith("application/json"):
            return response.json()
        return response.text

    @contextmanager
    def stream(self, method: str, path: str, **kwargs: Any) -> Iterator[httpx.Response]:
        """The response with its body unread, to read as it arrives (server-sent events); an error is printed and
        ends the command."""
        try:
            response = self._http.send(self._http.build_request(method, API_PREFIX + path, **kwargs), stream=True)
        except httpx.TransportError:
            self._unreachable()
        try:
            if response.is_error:
                response.read()
                self.fail(response, path)
            yield response
        finally:
            response.close()

    def fail(self, response: httpx.Response, path: str) -> NoReturn:
        """Print the API's error and end the command."""
        self._fail(response.status_code, response.content, logging_in=path == "/auth/login")

    def _fail(self, status: int, content: bytes, logging_in: bool = False) -> NoReturn:
        try:
            body = json.loads(content)
        except ValueError:
            body = {"detail": content.decode(errors="replace")}
        errors = body.get("errors") or []
        if status == 401 and not logging_in:
            err_console.print(f"[red]{NOT_LOGGED_IN}[/red] ({body.get('detail')})")
            raise typer.Exit(1)
        if not errors:
            err_console.print(f"[red]error {status}[/red]: {body.get('detail')}")
        for error in errors:
            row = f" row {error['row']}" if "row" in error else ""
            line = f" line {error['line']}" if "line" in error else ""  # of a job file
            err_console.print(f"[red]error {status}[/red]: {error['field']}{row}{line}: {error['message']}")
        raise typer.Exit(1)

    def send(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """The response as it is, errors included; only a server that cannot be reached ends the command."""
        try:
            return self._http.request(method, API_PREFIX + path, **kwargs)
        except httpx.TransportError:
            self._unreachable()

    def _unreachable(self) -> NoReturn:
        err_console.print(
            f"[red]cannot reach the platform at {self.base_url}[/red]: start it with `tplat serve` "
            "(or `make run`), or point PLATFORM_URL at it"
        )
        raise typer.Exit(2) from None

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> Any:
        return self.request("POST", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> Any:
        return self.request("DELETE", path, **kwargs)

    def patch(self, path: str, **kwargs: Any) -> Any:
        return self.request("PATCH", path, **kwargs)
