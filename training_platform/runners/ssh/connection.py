"""SSH connections to a remote host (asyncssh), used from the platform's threads.

One event loop thread serves every host; each host keeps one connection, opened on first use and opened again
after it broke. Nothing here reads the platform user's own SSH setup (~/.ssh/config, keys, agent, known_hosts):
a host is what its record says, and its host key is the one recorded when it was first trusted, so a machine
that presents another key is refused (HostKeyChanged, with both fingerprints).

Commands are argument lists: every word is quoted for the remote shell (shlex.join), and data a command needs
(a run's environment, its secrets) goes on its standard input, never on its command line or into a file.
"""

import asyncio
import logging
import shlex
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import asyncssh

log = logging.getLogger(__name__)
T = TypeVar("T")
CONNECT_TIMEOUT_S = 15.0
# A dead peer is noticed within about three intervals, also while nothing else is sent.
KEEPALIVE_INTERVAL_S = 5.0
COMMAND_TIMEOUT_S = 120.0
MAX_OUTPUT_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Credentials:
    """What logs in: a password, or a private key (OpenSSH or PEM text) with its passphrase. Never in a repr."""

    password: str | None = field(default=None, repr=False)
    private_key: str | None = field(default=None, repr=False)
    passphrase: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Endpoint:
    """Where and as whom: the host's record without its credentials (those are asked for at each connection)."""

    name: str
    host: str
    port: int
    username: str
    host_key: str | None  # OpenSSH public key recorded on first trust; None: not trusted yet


class SshError(Exception):
    """A connection or command failed; the message says why in words a user can act on."""


class HostUnreachable(SshError):
    """The network path failed (refused, timed out, dropped): worth trying again later."""


class HostKeyChanged(SshError):
    def __init__(self, endpoint: Endpoint, presented: str | None):
        self.presented = presented
        recorded = fingerprint(endpoint.host_key) if endpoint.host_key else "none"
        shown = fingerprint(presented) if presented else "unknown"
        super().__init__(
            f"the host key of {endpoint.host}:{endpoint.port} changed: recorded {recorded}, presented {shown}. "
            "If the machine was reinstalled, trust its new key (POST /hosts/{name}/trust); otherwise someone may be "
            "in between"
        )


@dataclass(frozen=True)
class CommandResult:
    exit_status: int | None
    stdout: str
    stderr: str


def fingerprint(public_key: str) -> str:
    return asyncssh.import_public_key(public_key).get_fingerprint("sha256")


def remote_command(argv: list[str]) -> str:
    """The remote shell's command line: every word quoted, so none is interpreted ($(), ;, backticks, newlines)."""
    return shlex.join(argv)


class SshClient:
    """Connections to hosts, one per host name, from any thread (`call`). Each call waits at most `timeout`."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="ssh-client", daemon=True)
        self._thread.start()
        self._connections: dict[str, asyncssh.SSHClientConnection] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def call(self, coroutine: Awaitable[T], timeout: float = COMMAND_TIMEOUT_S) -> T:
        future = asyncio.run_coroutine_threadsafe(_bounded(coroutine, timeout), self._loop)
        return future.result()

    async def connection(self, endpoint: Endpoint, credentials: Credentials) -> asyncssh.SSHClientConnection:
        lock = self._locks.setdefault(endpoint.name, asyncio.Lock())
        async with lock:
            open_one = self._connections.get(endpoint.name)
            if open_one is not None and not open_one.is_closed():
                return open_one
            connection = await connect(endpoint, credentials)
            self._connections[endpoint.name] = connection
            return connection

    def forget(self, name: str) -> None:
        """Close the host's connection (its record changed, or it was removed)."""
        connection = self._connections.pop(name, None)
        if connection is not None:
            self._loop.call_soon_threadsafe(connection.close)

    async def _drop(self, name: str, connection: asyncssh.SSHClientConnection) -> None:
        if self._connections.get(name) is connection:
            del self._connections[name]
        connection.close()

    async def use(
        self,
        endpoint: Endpoint,
        credentials: Credentials,
        action: Callable[[asyncssh.SSHClientConnection], Awaitable[T]],
    ) -> T:
        """`action(connection)`; a connection that broke on the way is dropped (the next use opens a new one) and
        the failure is a HostUnreachable."""
        connection = await self.connection(endpoint, credentials)
        try:
            return await action(connection)
        except (OSError, asyncssh.DisconnectError, asyncssh.ChannelOpenError, asyncssh.ConnectionLost) as error:
            await self._drop(endpoint.name, connection)
            raise HostUnreachable(f"the connection to {endpoint.host}:{endpoint.port} was lost: {error}") from error
        except asyncssh.SFTPError:
            raise
        except asyncssh.Error as error:
            await self._drop(endpoint.name, connection)
            raise HostUnreachable(f"SSH to {endpoint.host}:{endpoint.port} failed: {error}") from error

    def run(
        self,
        endpoint: Endpoint,
        credentials: Credentials,
        argv: list[str],
        input_text: str | None = None,
        timeout: float = COMMAND_TIMEOUT_S,
    ) -> CommandResult:
        async def action(connection: asyncssh.SSHClientConnection) -> CommandResult:
            process = await connection.create_process(remote_command(argv))
            if input_text is not None:
                try:
                    process.stdin.write(input_text)
                    process.stdin.write_eof()
                except BrokenPipeError:
                    pass  # the command ended before reading its input (no such interpreter): its exit status says so
            result = await process.wait(check=False)
            return CommandResult(result.exit_status, _text(result.stdout), _text(result.stderr))

        return self.call(self.use(endpoint, credentials, action), timeout)

    def sftp(
        self,
        endpoint: Endpoint,
        credentials: Credentials,
        action: Callable[[asyncssh.SFTPClient], Awaitable[T]],
        timeout: float = COMMAND_TIMEOUT_S,
    ) -> T:
        async def with_sftp(connection: asyncssh.SSHClientConnection) -> T:
            async with connection.start_sftp_client() as sftp:
                return await action(sftp)

        return self.call(self.use(endpoint, credentials, with_sftp), timeout)

    def close(self) -> None:
        for name in list(self._connections):
            self.forget(name)
        self._loop.call_soon_threadsafe(self._loop.stop)


async def _bounded(coroutine: Awaitable[T], timeout: float) -> T:
    try:
        return await asyncio.wait_for(coroutine, timeout)
    except TimeoutError as error:
        raise HostUnreachable(f"no answer within {timeout:.0f} s") from error


def _text(output: Any) -> str:
    text = output.decode(errors="replace") if isinstance(output, bytes) else (output or "")
    return text[:MAX_OUTPUT_BYTES]


def _options(endpoint: Endpoint, credentials: Credentials, known_hosts: Any) -> dict[str, Any]:
    keys = []
    if credentials.private_key:
        try:
            keys = [asyncssh.import_private_key(credentials.private_key, credentials.passphrase)]
        except (asyncssh.KeyImportError, asyncssh.KeyEncryptionError) as error:
            raise SshError(f"the private key of host {endpoint.name} cannot be read: {error}") from None
    return dict(
        host=endpoint.host,
        port=endpoint.port,
        username=endpoint.username,
        password=credentials.password,
        client_keys=keys or None,
        known_hosts=known_hosts,
        # The platform user's own SSH setup is not the host's: no config file, agent or default keys.
        config=None,
        agent_path=None,
        preferred_auth="publickey,password" if keys else "password",
        connect_timeout=CONNECT_TIMEOUT_S,
        keepalive_interval=KEEPALIVE_INTERVAL_S,
        keepalive_count_max=3,
    )


async def connect(endpoint: Endpoint, credentials: Credentials) -> asyncssh.SSHClientConnection:
    """A connection that checked the recorded host key; SshError says what failed."""
    if endpoint.host_key is None:
        raise SshError(f"host {endpoint.name}'s key is not trusted yet: test the connection first")
    pinned = ([asyncssh.import_public_key(endpoint.host_key)], [], [])
    try:
        return await asyncssh.connect(**_options(endpoint, credentials, pinned))
    except asyncssh.HostKeyNotVerifiable:
        raise HostKeyChanged(endpoint, await presented_key(endpoint)) from None
    except asyncssh.PermissionDenied:
        raise SshError(
            f"{endpoint.username}@{endpoint.host}:{endpoint.port} refused the credentials (wrong password or key)"
        ) from None
    except (OSError, TimeoutError, asyncssh.Error) as error:
        raise HostUnreachable(_unreachable(endpoint, error)) from None


async def presented_key(endpoint: Endpoint) -> str | None:
    """The host key the machine presents now (no login), as an OpenSSH public key; None if it cannot be had."""
    try:
        key = await asyncssh.get_server_host_key(endpoint.host, endpoint.port, config=None)
    except (OSError, TimeoutError, asyncssh.Error) as error:
        raise HostUnreachable(_unreachable(endpoint, error)) from None
    return key.export_public_key("openssh").decode().strip() if key else None


def _unreachable(endpoint: Endpoint, error: BaseException) -> str:
    return f"cannot reach {endpoint.host}:{endpoint.port}: {error or type(error).__name__}"
