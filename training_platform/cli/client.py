"""A thin HTTP client for the CLI: every error becomes a clear message and an exit code."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import httpx
import typer
from rich.console import Console

err_console = Console(stderr=True)


NOT_LOGGED_IN = "not logged in: run `tplat auth login` or set PLATFORM_TOKEN"


class ApiClient:
    def __init__(self, base_url: str, token: str | None = None, timeout: float = 60.0):
        self.base_url = base_url.rstrip("/")
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.Client(base_url=f"{self.base_url}/api/v1", timeout=timeout, headers=headers)

    def request(self, method: str, path: str, raw: bool = False, **kwargs: Any) -> Any:
        """The response's JSON (or text; its bytes with `raw`); an error is printed and ends the command."""
        response = self.send(method, path, **kwargs)
        if response.is_error:
            self._fail(response, path)
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
            response = self._http.send(self._http.build_request(method, path, **kwargs), stream=True)
        except httpx.TransportError:
            self._unreachable()
        try:
            if response.is_error:
                response.read()
                self._fail(response, path)
            yield response
        finally:
            response.close()

    def _fail(self, response: httpx.Response, path: str) -> NoReturn:
        """Print the API's error and end the command."""
        try:
            body = response.json()
        except ValueError:
            body = {"detail": response.text}
        errors = body.get("errors") or []
        if response.status_code == 401 and path != "/auth/login":
            err_console.print(f"[red]{NOT_LOGGED_IN}[/red] ({body.get('detail')})")
            raise typer.Exit(1)
        if not errors:
            err_console.print(f"[red]error {response.status_code}[/red]: {body.get('detail')}")
        for error in errors:
            row = f" row {error['row']}" if "row" in error else ""
            err_console.print(f"[red]error {response.status_code}[/red]: {error['field']}{row}: {error['message']}")
        raise typer.Exit(1)

    def send(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """The response as it is, errors included; only a server that cannot be reached ends the command."""
        try:
            return self._http.request(method, path, **kwargs)
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
