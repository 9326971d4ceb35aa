"""The CLI's own file: the token `tplat auth login` saved for each server, readable by its owner only.

`$PLATFORM_CONFIG`, else `~/.config/tplat/config.toml`:

    [servers."http://127.0.0.1:8000"]
    user = "admin"
    token = "tplat_..."
    token_id = "0f3c..."
"""

import json
import os
import tomllib
from pathlib import Path

from pydantic import SecretStr

TOKEN_VARIABLE = "PLATFORM_TOKEN"
HEADER = "# tplat's credentials (`tplat auth login`): keep this file to yourself.\n"


def config_path() -> Path:
    if configured := os.environ.get("PLATFORM_CONFIG"):
        return Path(configured).expanduser()
    return Path("~/.config/tplat/config.toml").expanduser()


def read_servers() -> dict[str, dict[str, str]]:
    path = config_path()
    try:
        with open(path, "rb") as handle:
            servers = tomllib.load(handle).get("servers", {})
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{path} is not valid TOML: {error}") from None
    return {url: dict(entry) for url, entry in servers.items() if isinstance(entry, dict)}


def saved_login(url: str) -> dict[str, str] | None:
    return read_servers().get(_key(url))


def token_for(url: str, admin_token: SecretStr | None) -> str | None:
    """PLATFORM_TOKEN, else the token saved for `url`, else PLATFORM_ADMIN_TOKEN."""
    if token := os.environ.get(TOKEN_VARIABLE):
        return token
    try:
        login = saved_login(url)
    except ValueError:
        login = None  # a broken file is reported by `tplat auth` commands; the others go on without it
    if login and login.get("token"):
        return login["token"]
    return (admin_token.get_secret_value() if admin_token else "") or None


def save_login(url: str, user: str, token: str, token_id: str) -> Path:
    servers = read_servers()
    servers[_key(url)] = {"user": user, "token": token, "token_id": token_id}
    return _write(servers)


def forget_login(url: str) -> dict[str, str] | None:
    servers = read_servers()
    removed = servers.pop(_key(url), None)
    if removed is not None:
        _write(servers)
    return removed


def _key(url: str) -> str:
    return url.rstrip("/")


def _write(servers: dict[str, dict[str, str]]) -> Path:
    """Written whole, created with mode 0600 (and set to it if it existed), in a directory only its owner opens."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    lines = [HEADER]
    for url, entry in servers.items():
        # A JSON string is a valid TOML basic string: the same quotes and escapes.
        lines.append(f"\n[servers.{json.dumps(url, ensure_ascii=False)}]\n")
        lines += [f"{key} = {json.dumps(str(value), ensure_ascii=False)}\n" for key, value in entry.items()]
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.writelines(lines)
    os.chmod(path, 0o600)
    return path
