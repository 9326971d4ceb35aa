"""Metrics follow-up over SSH: `python -m benchmarks.ssh.run [--seconds 20]`.

A metrics file grows at 100 steps/s, each line stamped with the time it was written; the platform's server follows
it and pushes every step to a live WebSocket viewer. Two arms, one after the other, against the same server:

- local: the writer appends to the job's metrics file on this machine, which the server follows;
- ssh: the same writer runs as another user on a remote machine (a real OpenSSH server on loopback,
  tests/support/sshd.py), appending to a file in that user's home; the SSH runner's mirror (runners/ssh/mirror.py,
  one pass every runner.POLL_INTERVAL_S, over a pinned-host-key connection as the runner makes it) copies it into
  the job's metrics file here, which the server follows exactly as in the local arm.

Measured per arm: steps written, steps received on the WebSocket, steps/s ingested (steps received over the time from
the first line written to the last step received) and the delay from a line written to its step's arrival on the
WebSocket (p50, p99). Both writers run on this machine, so their clock is the viewer's. The ratios are ssh / local.
"""

import argparse
import asyncio
import json
import os
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from benchmarks.metrics import live_writer
from training_platform.contract.layout import JobLayout
from training_platform.runners.ssh.connection import Credentials, Endpoint, SshClient
from training_platform.runners.ssh.host import RemoteHost
from training_platform.runners.ssh.mirror import RunMirror
from training_platform.runners.ssh.paths import RemotePaths
from training_platform.runners.ssh.runner import POLL_INTERVAL_S

STEPS_PER_SECOND = 100.0
DRAIN_SECONDS = 30.0  # the longest an arm waits for its last steps after the writer ended
WRITTEN_AT = "bench/sent"  # the writer's stamp: its time.time() when it wrote the line (custom group)
WRITER_SCRIPT = Path(live_writer.__file__)  # run as a script remotely: the remote user's Python has no benchmarks


@dataclass
class ArmResult:
    arm: str
    written: int
    received: int
    steps_per_second: float
    delays: list[float]  # seconds, sorted

    @property
    def p50(self) -> float:
        return self.delays[len(self.delays) // 2]

    @property
    def p99(self) -> float:
        return self.delays[int(len(self.delays) * 0.99)]


def run(seconds: float, workdir: Path) -> list[ArmResult]:
    """Starts the server and the remote machine under `workdir`, then measures the local arm and the ssh arm."""
    import httpx

    from tests.support.helpers import ServerProcess, wait_until
    from tests.support.sshd import start_remote_machine

    home = workdir / "platform"
    home.mkdir()
    server = ServerProcess(home=home)
    server.env["BENCH_JOBS"] = "2"  # one job per arm
    (workdir / "remote").mkdir()
    with start_remote_machine(workdir / "remote") as machine:
        server.process = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.metrics.live_server"],
            env=server.env,
            start_new_session=True,
            stdout=open(home / "server.log", "w"),
            stderr=subprocess.STDOUT,
        )
        try:
            wait_until(server._healthy, 60, message="benchmark server")
            files = wait_until(lambda: httpx.get(f"{server.url}/bench/files").json() or None, 30, message="jobs")
            (local_job, local_file), (ssh_job, ssh_file) = sorted(files.items())
            local = asyncio.run(_measure(server, "local", local_job, lambda: _write_locally(seconds, local_file)))
            remote = _measure_over_ssh(server, machine, ssh_job, Path(ssh_file), seconds)
        finally:
            server.process.terminate()
            server.process.wait(30)
    return [local, remote]


def _measure_over_ssh(server, machine, job_id: str, local_file: Path, seconds: float) -> ArmResult:
    client = SshClient()
    credentials = Credentials(private_key=machine.private_key)
    host = RemoteHost(
        client=client,
        endpoint=Endpoint("bench-remote", machine.host, machine.port, machine.username, machine.host_public_key),
        credentials=lambda: credentials,
        python=machine.python,
        environment={},
        paths=RemotePaths(str(machine.home / "tplat")),
    )
    layout = JobLayout(job_id, local_file.parent)
    mirror = RunMirror(host, layout, host.paths.job_dir(job_id))
    remote_file = mirror.remote(layout.metrics_path)
    host.sftp(lambda sftp: sftp.makedirs(str(remote_file.parent), exist_ok=True))  # the run's job directory
    mirror.sync()  # the connection is open before the run writes, as the runner's is (it launched the run)
    stop = threading.Event()
    with ThreadPoolExecutor(1) as thread:
        following = thread.submit(_follow_like_the_runner, mirror, stop)
        try:
            return asyncio.run(_measure(server, "ssh", job_id, lambda: _write_remotely(machine, seconds, remote_file)))
        finally:
            stop.set()
            following.result()  # a failed pass fails the benchmark rather than showing as missing steps
            client.close()


def _follow_like_the_runner(mirror: RunMirror, stop: threading.Event) -> None:
    """SshRunner._follow's loop without its liveness checks: a mirror pass, then POLL_INTERVAL_S of sleep."""
    while not stop.is_set():
        mirror.sync()
        stop.wait(POLL_INTERVAL_S)


async def _write_locally(seconds: float, path: str) -> int:
    argv = [sys.executable, str(WRITER_SCRIPT), str(seconds), str(STEPS_PER_SECOND), path]
    done = await asyncio.to_thread(subprocess.run, argv, capture_output=True, text=True, check=True)
    return int(done.stdout)


async def _write_remotely(machine, seconds: float, path: PurePosixPath) -> int:
    """The writer as the remote user, started over SSH, appending to a file in its home."""
    argv = [machine.python, str(WRITER_SCRIPT), str(seconds), str(STEPS_PER_SECOND), str(path)]
    async with machine.connect() as connection:
        done = await connection.run(shlex.join(argv), check=True)
    return int(done.stdout)


async def _measure(server, arm: str, job_id: str, write) -> ArmResult:
    """A viewer on the job's live socket while `write()` runs; every step's arrival time against its write time."""
    from websockets.asyncio.client import connect

    arrivals: dict[int, tuple[float, float]] = {}  # step: (written at, received at)
    socket = await connect(server.ws_url(f"/monitoring/{job_id}/live"), additional_headers=server.auth_headers)
    await socket.recv()  # the status message: from here on the viewer is subscribed

    async def listen() -> None:
        async for raw in socket:
            received = time.time()
            message = json.loads(raw)
            if message["type"] == "metric":
                data = message["data"]
                arrivals.setdefault(data["step"], (data["custom"][WRITTEN_AT], received))

    listener = asyncio.create_task(listen())
    written = await write()
    # Wait for every step (or give up after DRAIN_SECONDS, and the count says what is missing), rather than for a
    # fixed time a loaded machine may overrun.
    deadline = time.monotonic() + DRAIN_SECONDS
    while len(arrivals) < written and time.monotonic() < deadline and not listener.done():
        await asyncio.sleep(0.02)
    await socket.close()
    await listener
    if not arrivals:
        raise RuntimeError(f"{arm}: none of the {written} steps written arrived on the live socket")
    first_written = min(written_at for written_at, _ in arrivals.values())
    last_received = max(received for _, received in arrivals.values())
    return ArmResult(
        arm=arm,
        written=written,
        received=len(arrivals),
        steps_per_second=len(arrivals) / (last_received - first_written),
        delays=sorted(received - written_at for written_at, received in arrivals.values()),
    )


def table(results: list[ArmResult], seconds: float) -> str:
    """Markdown: one line per arm, then the ratios ssh / local, then what was measured how."""
    header = (
        "arm",
        "steps written",
        "steps/s written",
        "steps received",
        "steps/s ingested",
        "delay p50 ms",
        "delay p99 ms",
    )
    lines = [
        (
            row.arm,
            f"{row.written:,}",
            f"{row.written / seconds:.1f}",
            f"{row.received:,}",
            f"{row.steps_per_second:.1f}",
            f"{row.p50 * 1000:.1f}",
            f"{row.p99 * 1000:.1f}",
        )
        for row in results
    ]
    by_arm = {row.arm: row for row in results}
    ssh, local = by_arm["ssh"], by_arm["local"]
    lines.append(
        (
            "ssh / local",
            "–",
            "–",
            "–",
            f"{ssh.steps_per_second / local.steps_per_second:.2f}x",
            f"{ssh.p50 / local.p50:.2f}x",
            f"{ssh.p99 / local.p99:.2f}x",
        )
    )
    markdown = "\n".join("| " + " | ".join(line) + " |" for line in [header, tuple("---" for _ in header), *lines])
    return (
        f"{markdown}\n\nA file growing at {STEPS_PER_SECOND:.0f} steps/s for {seconds:g} s per arm (the writer sleeps "
        "1/100 s after each line, so a little under that), followed by one server and watched by one live WebSocket "
        "viewer; delay: line written → its step on the socket. The SSH leg measured is the SSH runner's mirror "
        f"(RunMirror, a pass every {POLL_INTERVAL_S} s over SFTP, as the runner follows a run), from a remote user's "
        "file on an OpenSSH server on loopback: no network in between. "
        f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f} at the end."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each arm's writer writes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ssh-bench-") as workdir:
        results = run(args.seconds, Path(workdir))
    for row in results:
        print(f"{row.arm}: {row.written} written, {row.received} received", file=sys.stderr)
    print(table(results, args.seconds))
    if any(row.received < row.written for row in results):
        sys.exit("steps went missing: see the steps received")


if __name__ == "__main__":
    main()
