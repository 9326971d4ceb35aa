"""A thin HTTP client for the CLI: every error becomes a clear message and an exit code."""

from typing import Any

import httpx
import typer
from rich.console import Console

err_console = Console(stderr=True)


class ApiClient:
    def __init__(self, base_url: str, timeout: float = 60.0):
        self.base_url = base_url.rstrip("/")
        self._http = httpx.Client(base_url=f"{self.base_url}/api/v1", timeout=timeout)

    def request(self, method: str, path: str, raw: bool = False, **kwargs: Any) -> Any:
        """The response's JSON (or text; its bytes with `raw`); an error is printed and ends the command."""
        try:
            response = self._http.request(method, path, **kwargs)
        except httpx.TransportError:
            err_console.print(
                f"[red]cannot reach the platform at {self.base_url}[/red]: start it with `tplat serve` "
                "(or `make run`), or point PLATFORM_URL at it"
            )
            raise typer.Exit(2) from None
        if response.is_error:
            try:
                body = response.json()
            except ValueError:
                body = {"detail": response.text}
            errors = body.get("errors") or []
            if not errors:
                err_console.print(f"[red]error {response.status_code}[/red]: {body.get('detail')}")
            for error in errors:
                row = f" row {error['row']}" if "row" in error else ""
                err_console.print(f"[red]error {response.status_code}[/red]: {error['field']}{row}: {error['message']}")
            raise typer.Exit(1)
        if response.status_code == 204:
            return None
        if raw:
            return response.content
        if response.headers.get("content-type", "").startswith("application/json"):
            return response.json()
        return response.text

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> Any:
        return self.request("POST", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> Any:
        return self.request("DELETE", path, **kwargs)
