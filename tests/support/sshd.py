"""A "remote machine" for the SSH run mode's tests: a real OpenSSH server listening on loopback, and a separate
system user whose home directory (in a folder of its own under /tmp, removed at the end) plays the remote host's
disk. Logging in works with a key, with a passphrase-protected key and with a password; the listener can be
restarted, its connections cut and its host key changed, and everything the user ran can be listed and killed.

The platform's interpreter lives under /root (mode 0700), which another user cannot reach, so the user gets a
venv of its own from the system's /usr/bin/python3.11 with a `.pth` file that adds the platform venv's
site-packages (the repository is world-readable): `machine.python` imports `training_platform` and `torch` as the user.
"""

import asyncio
import contextlib
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import sys
import sysconfig
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh
import psutil

SSHD = "/usr/sbin/sshd"
SYSTEM_PYTHON = "/usr/bin/python3.11"
DEADLINE_S = 15.0


def _wait_until(condition, what: str, timeout_s: float = DEADLINE_S) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout_s} s waiting for {what}")
        time.sleep(0.02)


def _admin(argv: list[str], stdin: str | None = None) -> None:
    """Runs useradd/chpasswd/userdel, retrying while another test holds the lock on /etc/passwd or /etc/shadow."""
    deadline = time.monotonic() + DEADLINE_S
    while True:
        result = subprocess.run(argv, input=stdin, capture_output=True, text=True)
        if result.returncode == 0:
            return
        if "lock" not in result.stderr or time.monotonic() > deadline:
            raise RuntimeError(f"{argv[0]} failed ({result.returncode}): {result.stderr.strip()}")
        time.sleep(0.05)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _accepts_connections(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def _running(process: psutil.Process) -> bool:
    """False once it ended; a zombie counts as ended (its parent may be slow to reap it, and it holds nothing)."""
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _kill_and_wait(processes: list[psutil.Process]) -> None:
    for process in processes:
        try:
            process.kill()
        except psutil.NoSuchProcess:
            pass
    _wait_until(lambda: not any(_running(process) for process in processes), "killed processes to end")


@dataclass
class RemoteMachine:
    base: Path
    username: str = field(default_factory=lambda: "tplr" + secrets.token_hex(3))
    password: str = field(default_factory=lambda: secrets.token_urlsafe(18))
    passphrase: str = field(default_factory=lambda: secrets.token_urlsafe(18))
    host: str = "127.0.0.1"
    port: int = field(default_factory=_free_port)
    uid: int = -1
    gid: int = -1
    private_key: str = ""
    passphrase_key: str = ""
    host_public_key: str = ""
    python: str = ""
    sshd_pid: int | None = None
    _sshd: subprocess.Popen | None = field(default=None, repr=False)
    _user_created: bool = field(default=False, repr=False)

    @property
    def disk(self) -> Path:
        """The machine's own folder, outside pytest's (which a starting pytest session makes 0700 again, and so
        unreachable for the user): its home and its authorized keys."""
        return Path(tempfile.gettempdir()) / f"tplat-remote-{self.username}"

    @property
    def home(self) -> Path:
        return self.disk / "home"

    @property
    def known_hosts_line(self) -> str:
        return f"[{self.host}]:{self.port} {self.host_public_key}"

    def connect(self, **options):
        """`async with machine.connect() as connection:` logs in with the client key (override with options)."""
        defaults = {
            "port": self.port,
            "username": self.username,
            "known_hosts": asyncssh.import_known_hosts(self.known_hosts_line),
            "client_keys": [asyncssh.import_private_key(self.private_key)],
        }
        return asyncssh.connect(self.host, **{**defaults, **options})

    def ssh_run(self, command: str) -> str:
        """Runs `command` over SSH (fails on a non-zero exit) and returns its stdout; callable from async tests too."""

        async def run_over_ssh() -> str:
            async with self.connect() as connection:
                return (await connection.run(command, check=True)).stdout

        with ThreadPoolExecutor(1) as thread:
            return thread.submit(asyncio.run, run_over_ssh()).result()

    def run(self, argv: list[str]) -> subprocess.CompletedProcess:
        """Runs `argv` locally as the user, in its home, with a login-like environment."""
        user_env = {"HOME": str(self.home), "USER": self.username, "LOGNAME": self.username, "PATH": "/usr/bin:/bin"}
        privileges = ["setpriv", f"--reuid={self.uid}", f"--regid={self.gid}", "--init-groups"]
        return subprocess.run([*privileges, *argv], cwd=self.home, env=user_env, capture_output=True, text=True)

    def processes(self) -> list[tuple[int, list[str]]]:
        return [(process.pid, process.info["cmdline"]) for process in self._user_processes()]

    def restart_sshd(self) -> None:
        self.stop_sshd()
        self._start_sshd()

    def drop_connections(self) -> None:
        """Kills every per-connection sshd below the listener: open connections break, the listener stays."""
        per_connection = []
        for child in psutil.Process(self.sshd_pid).children(recursive=True):
            with contextlib.suppress(psutil.NoSuchProcess):
                if child.name() == "sshd":  # not the user's commands below them: those outlive a network cut
                    per_connection.append(child)
        _kill_and_wait(per_connection)

    def change_host_key(self) -> None:
        self._write_host_key()
        self.restart_sshd()

    def close(self) -> None:
        if self.sshd_pid is not None and psutil.pid_exists(self.sshd_pid):
            self.drop_connections()
        self.stop_sshd()
        if self.uid >= 0:
            _kill_and_wait(self._user_processes())
        if self._user_created:
            _admin(["userdel", self.username])
            self._user_created = False
        shutil.rmtree(self.disk, ignore_errors=True)

    def __enter__(self) -> "RemoteMachine":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def _user_processes(self) -> list[psutil.Process]:
        # Also the root-owned "sshd: <user> [priv]" monitors of connections the listener no longer parents.
        found = []
        for process in psutil.process_iter(["uids", "cmdline", "status"]):
            uids, cmdline = process.info["uids"], process.info["cmdline"] or []
            if process.info["status"] in (None, psutil.STATUS_ZOMBIE):
                continue
            monitor = bool(cmdline) and cmdline[0].startswith(f"sshd: {self.username} ")
            if (uids is not None and self.uid in (uids.real, uids.effective)) or monitor:
                found.append(process)
        return found

    def _create_user(self) -> None:
        self.disk.mkdir(mode=0o755)
        _admin(
            ["useradd", "--system", "--user-group", "--shell", "/bin/sh", "--home-dir", str(self.home), self.username]
        )
        self._user_created = True
        _admin(["chpasswd"], stdin=f"{self.username}:{self.password}\n")  # also unlocks the account for key logins
        entry = pwd.getpwnam(self.username)
        self.uid, self.gid = entry.pw_uid, entry.pw_gid
        self.home.mkdir(mode=0o700)
        os.chown(self.home, self.uid, self.gid)

    def _write_keys(self) -> None:
        (self.base / "sshd").mkdir(mode=0o700)
        self._write_host_key()
        client_key = asyncssh.generate_private_key("ssh-ed25519")
        protected_key = asyncssh.generate_private_key("ssh-ed25519")
        self.private_key = client_key.export_private_key().decode()
        # OpenSSH-format encryption needs bcrypt, which the platform does not install; PKCS#8 needs only cryptography.
        self.passphrase_key = protected_key.export_private_key("pkcs8-pem", passphrase=self.passphrase).decode()
        # sshd reads this file as the user, so it lies outside the root-only sshd/ folder.
        authorized = b"".join(key.export_public_key() for key in (client_key, protected_key))
        (self.disk / "authorized_keys").write_bytes(authorized)
        (self.disk / "authorized_keys").chmod(0o644)

    def _write_host_key(self) -> None:
        host_key = asyncssh.generate_private_key("ssh-ed25519")
        path = self.base / "sshd" / "host_ed25519"
        path.unlink(missing_ok=True)
        path.touch(mode=0o600)
        path.write_bytes(host_key.export_private_key())
        self.host_public_key = host_key.export_public_key().decode().strip()

    def _write_config(self) -> Path:
        config = self.base / "sshd" / "sshd_config"
        config.write_text(
            f"ListenAddress {self.host}\nPort {self.port}\nHostKey {self.base / 'sshd' / 'host_ed25519'}\n"
            f"PidFile {self.base / 'sshd' / 'sshd.pid'}\nAuthorizedKeysFile {self.disk / 'authorized_keys'}\n"
            "PasswordAuthentication yes\nKbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\n"
            f"PermitRootLogin no\nAllowUsers {self.username}\nSubsystem sftp internal-sftp\n"
            "MaxStartups 100\nMaxSessions 100\nLogLevel VERBOSE\n"
        )
        return config

    def _start_sshd(self) -> None:
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege-separation directory
        config = self._write_config()
        checked = subprocess.run([SSHD, "-t", "-f", str(config)], capture_output=True, text=True)
        if checked.returncode != 0:
            raise RuntimeError(f"sshd -t rejected {config}: {checked.stderr.strip()}")
        with open(self.base / "sshd.log", "ab") as log:
            self._sshd = subprocess.Popen(
                [SSHD, "-D", "-e", "-f", str(config)], stdout=subprocess.DEVNULL, stderr=log, start_new_session=True
            )
        self.sshd_pid = self._sshd.pid
        _wait_until(lambda: self._sshd.poll() is not None or _accepts_connections(self.port), "sshd to listen")
        if self._sshd.poll() is not None:
            raise RuntimeError(f"sshd exited with {self._sshd.returncode}; see {self.base / 'sshd.log'}")

    def stop_sshd(self) -> None:
        if self._sshd is not None:
            self._sshd.terminate()
            self._sshd.wait(timeout=DEADLINE_S)
        self._sshd, self.sshd_pid = None, None

    def _make_python_env(self) -> None:
        env = self.home / "env"
        made = self.run([SYSTEM_PYTHON, "-m", "venv", "--without-pip", str(env)])
        if made.returncode != 0:
            raise RuntimeError(f"venv as {self.username} failed: {made.stderr.strip()}")
        version = f"python{sys.version_info.major}.{sys.version_info.minor}"
        platform_packages = sysconfig.get_path("purelib")
        pth = env / "lib" / version / "site-packages" / "platform_venv.pth"
        pth.write_text(f"import site; site.addsitedir({platform_packages!r})\n")
        os.chown(pth, self.uid, self.gid)
        self.python = str(env / "bin" / "python")
        imported = self.run([self.python, "-c", "import training_platform, torch"])
        if imported.returncode != 0:
            raise RuntimeError(f"{self.python} cannot import the platform as {self.username}: {imported.stderr}")


def start_remote_machine(base: Path) -> RemoteMachine:
    """Creates the user, its keys, sshd and its Python env under `base`; on any failure undoes what was made."""
    machine = RemoteMachine(base=Path(base))
    try:
        machine._create_user()
        machine._write_keys()
        machine._start_sshd()
        machine._make_python_env()
    except BaseException:
        machine.close()
        raise
    return machine
