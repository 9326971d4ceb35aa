"""`tplat auth ...`: log in and out, API tokens, users (admins) and the audit log (admins).

`login` turns a password into an API token of its own ("tplat on <host>") saved in the CLI's config file
(cli/config.py), so the CLI keeps working after the web session's hours; `logout` revokes that token.
"""

import socket
import sys
from typing import Annotated

import typer
from rich.table import Table

from training_platform.auth.schemas import Role
from training_platform.cli import config
from training_platform.cli.client import ApiClient
from training_platform.cli.common import JsonOpt, client, console, err_console, print_json
from training_platform.settings import get_settings

app = typer.Typer(help="Log in and out, API tokens, users and the audit log.", no_args_is_help=True)
tokens_app = typer.Typer(help="Your API tokens (an admin's: everyone's).", no_args_is_help=True)
users_app = typer.Typer(help="Users and their roles (admins only).", no_args_is_help=True)
app.add_typer(tokens_app, name="tokens")
app.add_typer(users_app, name="users")

PasswordStdinOpt = Annotated[
    bool, typer.Option("--password-stdin", help="Read the password from standard input (for scripts).")
]


def _password(from_stdin: bool, confirm: bool = False) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    return typer.prompt("password", hide_input=True, confirmation_prompt=confirm)


@app.command()
def login(
    user: Annotated[str | None, typer.Option("--user", "-u", help="User name (asked if not given).")] = None,
    password_stdin: PasswordStdinOpt = False,
) -> None:
    """Log in to the server at PLATFORM_URL and save an API token for it (mode 0600) in $PLATFORM_CONFIG or
    ~/.config/tplat/config.toml."""
    url = get_settings().url
    name = user or typer.prompt("user")
    password = _password(password_stdin)
    answer = ApiClient(url).post("/auth/login", params={"token": True}, json={"username": name, "password": password})
    session = ApiClient(url, token=answer["token"])
    created = session.post("/auth/tokens", json={"name": f"tplat on {socket.gethostname()}"[:100]})
    session.post("/auth/logout")  # the token outlives the session, which is no longer needed
    path = config.save_login(url, answer["user"]["name"], created["token"], created["id"])
    console.print(
        f"logged in to {url} as [bold]{answer['user']['name']}[/bold] ({answer['user']['role']}); token in {path}"
    )


@app.command()
def logout() -> None:
    """Revoke the token `tplat auth login` saved for this server and forget it."""
    url = get_settings().url
    saved = config.saved_login(url)
    if saved is None:
        console.print(f"not logged in to {url} (no token saved in {config.config_path()})")
        return
    response = ApiClient(url, token=saved["token"]).send("DELETE", f"/auth/tokens/{saved.get('token_id', '')}")
    config.forget_login(url)
    if response.status_code not in (204, 401, 404):  # 401/404: revoked already, nothing left to do
        err_console.print(f"[yellow]the server did not revoke the token[/yellow]: {response.status_code}")
    console.print(f"logged out of {url}")


@app.command()
def whoami(as_json: JsonOpt = False) -> None:
    me = client().get("/auth/me")
    if as_json:
        print_json(me)
        return
    console.print(f"{me['name']} ({me['role']}, by {me['via']}) at {get_settings().url}")


# ---- tokens ------------------------------------------------------------------------------------------------------


@tokens_app.command("create")
def create_token(
    name: Annotated[str, typer.Argument(help="What the token is for, e.g. 'ci'.")],
    expires_days: Annotated[float | None, typer.Option(help="Days until it expires (never if not given).")] = None,
    user: Annotated[str | None, typer.Option(help="Whose token (admins only); yours if not given.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Create an API token. It is printed this once: the server keeps only its hash."""
    body = {"name": name, "expires_days": expires_days, "user": user}
    created = client().post("/auth/tokens", json={key: value for key, value in body.items() if value is not None})
    if as_json:
        print_json(created)
        return
    err_console.print(f"token [bold]{created['name']}[/bold] ({created['id']}) for {created['user']}; copy it now:")
    typer.echo(created["token"])


@tokens_app.command("list")
def list_tokens(as_json: JsonOpt = False) -> None:
    found = client().get("/auth/tokens")
    if as_json:
        print_json(found)
        return
    table = Table("id", "name", "kind", "user", "starts with", "created", "last used", "expires")
    for token in found:
        table.add_row(
            token["id"],
            token["name"],
            token["kind"],
            token["user"],
            token["prefix"],
            token["created_at"][:19],
            (token["last_used_at"] or "-")[:19],
            (token["expires_at"] or "never")[:19],
        )
    console.print(table)


@tokens_app.command("revoke")
def revoke_token(token_id: Annotated[str, typer.Argument(help="The token's id (see `tplat auth tokens list`).")]):
    client().delete(f"/auth/tokens/{token_id}")
    console.print(f"revoked token {token_id}")


# ---- users -------------------------------------------------------------------------------------------------------


@users_app.command("create")
def create_user(
    name: Annotated[str, typer.Argument(help="User name.")],
    role: Annotated[Role, typer.Option(help="admin, member or viewer.")] = Role.MEMBER,
    password_stdin: PasswordStdinOpt = False,
) -> None:
    password = _password(password_stdin, confirm=True)
    user = client().post("/auth/users", json={"name": name, "password": password, "role": role.value})
    console.print(f"created user [bold]{user['name']}[/bold] ({user['role']})")


@users_app.command("list")
def list_users(as_json: JsonOpt = False) -> None:
    found = client().get("/auth/users")
    if as_json:
        print_json(found)
        return
    table = Table("name", "role", "disabled", "created")
    for user in found:
        table.add_row(user["name"], user["role"], "yes" if user["disabled"] else "", user["created_at"][:19])
    console.print(table)


@users_app.command("set")
def set_user(
    name: Annotated[str, typer.Argument(help="User name.")],
    role: Annotated[Role | None, typer.Option(help="A new role.")] = None,
    disabled: Annotated[bool | None, typer.Option("--disabled/--enabled", help="Refuse or allow their logins.")] = None,
    password: Annotated[bool, typer.Option("--password", help="Set a new password (asked for).")] = False,
    password_stdin: PasswordStdinOpt = False,
) -> None:
    """Change a user's role, whether they may log in, or their password (which ends their web sessions)."""
    body: dict = {}
    if role is not None:
        body["role"] = role.value
    if disabled is not None:
        body["disabled"] = disabled
    if password or password_stdin:
        body["password"] = _password(password_stdin, confirm=True)
    if not body:
        err_console.print("nothing to change: give --role, --disabled/--enabled or --password")
        raise typer.Exit(2)
    user = client().patch(f"/auth/users/{name}", json=body)
    state = "disabled" if user["disabled"] else "enabled"
    console.print(f"user [bold]{user['name']}[/bold]: {user['role']}, {state}")


# ---- audit log ---------------------------------------------------------------------------------------------------


@app.command()
def audit(
    actor: Annotated[str | None, typer.Option(help="Only what this user did.")] = None,
    kind: Annotated[
        str | None, typer.Option(help="Only this kind of resource: job, dataset, model, user, token.")
    ] = None,
    resource: Annotated[str | None, typer.Option(help="Only this resource (id or name).")] = None,
    limit: Annotated[int, typer.Option(help="How many entries, newest first.")] = 50,
    as_json: JsonOpt = False,
) -> None:
    """The audit log (admins only): who did what to which resource, from where."""
    params = {"actor": actor, "resource_kind": kind, "resource": resource, "limit": limit}
    entries = client().get("/auth/audit", params={key: value for key, value in params.items() if value is not None})
    if as_json:
        print_json(entries)
        return
    table = Table("time", "actor", "action", "resource", "client", "detail")
    for entry in entries:
        resource_text = " ".join(filter(None, (entry["resource_kind"], entry["resource_name"] or entry["resource_id"])))
        table.add_row(
            entry["created_at"][:19],
            entry["actor"],
            entry["action"],
            resource_text,
            entry["client"] or "",
            entry["detail"],
        )
    console.print(table)
