"""What a host has: its Python, the platform's package there, its GPUs, free disk and memory.

The probe is a short standard-library program run by the host's interpreter (`python -c`), so it answers also
where the platform's package is missing, and says how to install it then.
"""

import json

from pydantic import BaseModel

import training_platform
from training_platform.runners.ssh.connection import CommandResult

PACKAGE = "training-platform"

PROBE = r"""
import json, os, platform, shutil, subprocess, sys
report = {"python": platform.python_version(), "executable": sys.executable, "cpus": os.cpu_count()}
try:
    import importlib.metadata as metadata
    report["package"] = metadata.version("training-platform")
except Exception:
    report["package"] = None
try:
    import training_platform.runners.ssh.agent
    report["agent"] = True
except Exception as error:
    report["agent"] = False
    report["agent_error"] = f"{type(error).__name__}: {error}"[:500]
work = sys.argv[1]
where = work
while not os.path.isdir(where):
    where = os.path.dirname(where) or "/"
usage = shutil.disk_usage(where)
report["disk_free_bytes"] = usage.free
report["work_dir_exists"] = os.path.isdir(work)
try:
    with open("/proc/meminfo") as handle:
        info = dict(line.split(":", 1) for line in handle)
    report["memory_total_bytes"] = int(info["MemTotal"].split()[0]) * 1024
    report["memory_available_bytes"] = int(info["MemAvailable"].split()[0]) * 1024
except (OSError, KeyError, ValueError):
    pass
gpus = []
smi = shutil.which("nvidia-smi")
if smi:
    try:
        out = subprocess.run(
            [smi, "--query-gpu=index,name,memory.total", "--format=csv,noheader,nounits"],
            capture_output=True, text=True, timeout=20,
        ).stdout
        for line in out.splitlines():
            parts = [part.strip() for part in line.split(",")]
            if len(parts) == 3 and parts[0].isdigit():
                gpus.append({"index": int(parts[0]), "name": parts[1], "memory_mib": int(float(parts[2]))})
    except (OSError, subprocess.SubprocessError, ValueError):
        pass
report["nvidia_smi"] = bool(smi)
report["gpus"] = gpus
print(json.dumps(report))
"""


class RemoteGpu(BaseModel):
    index: int
    name: str
    memory_mib: int


class HostReport(BaseModel):
    """What `test connection` found."""

    python: str
    executable: str
    cpus: int | None = None
    package: str | None = None  # the platform's version there; None when it is not installed
    agent: bool = False  # the platform's runner can run there
    agent_error: str | None = None
    disk_free_bytes: int
    work_dir_exists: bool
    memory_total_bytes: int | None = None
    memory_available_bytes: int | None = None
    nvidia_smi: bool = False
    gpus: list[RemoteGpu] = []
    problems: list[str] = []  # what keeps runs from starting there, each with what to do


def probe_argv(python: str, work_dir: str) -> list[str]:
    return [python, "-c", PROBE, work_dir]


def read_probe(result: CommandResult, python: str) -> HostReport:
    """The host's report; ValueError when its Python could not run the probe."""
    if result.exit_status in (126, 127):
        raise ValueError(f"no Python at {python} on the host ({result.stderr.strip()[:300] or 'not found'})")
    if result.exit_status != 0:
        raise ValueError(f"the host's Python at {python} failed the probe: {result.stderr.strip()[-500:]}")
    try:
        report = HostReport.model_validate(json.loads(result.stdout.strip().splitlines()[-1]))
    except (ValueError, IndexError) as error:
        raise ValueError(f"the host's Python at {python} answered something else than the probe: {error}") from None
    problems = []
    if report.package is None or not report.agent:
        problems.append(
            f"the platform's package is not installed for {python} there"
            + (f" ({report.agent_error})" if report.agent_error else "")
            + f": install it with `{python} -m pip install {PACKAGE}=={training_platform.__version__}` "
            "(or a wheel of this platform: `pip wheel --no-deps .` in its source)"
        )
    elif report.package != training_platform.__version__:
        problems.append(
            f"the host has {PACKAGE} {report.package}, this platform is {training_platform.__version__}: "
            f"install the same version with `{python} -m pip install {PACKAGE}=={training_platform.__version__}`"
        )
    return report.model_copy(update={"problems": problems})
