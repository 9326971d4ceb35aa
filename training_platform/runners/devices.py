"""The GPUs this server owns: the devices its local jobs are given, one job per device at a time.

They are named by the index CUDA gives them (what `nvidia-smi` lists), and a job is given its devices as
`CUDA_VISIBLE_DEVICES`. The server's own `CUDA_VISIBLE_DEVICES`, when set, says which of the machine's GPUs are
the platform's; `PLATFORM_GPUS` overrides what is detected (an operator sharing a box, the tests' device counts).
"""

import logging
import os
from collections.abc import Mapping

import pynvml

log = logging.getLogger(__name__)


def gpu_inventory(setting: str, environ: Mapping[str, str] | None = None) -> list[int]:
    """The platform's GPUs: those `setting` (PLATFORM_GPUS) names, else the machine's visible ones."""
    if setting.strip():
        return parse_gpu_setting(setting)
    return visible_gpus(machine_gpu_count(), os.environ if environ is None else environ)


def parse_gpu_setting(setting: str) -> list[int]:
    """One number is a count ("4": GPUs 0 to 3); a comma-separated list names the devices ("2,3")."""
    entries = [entry.strip() for entry in setting.split(",") if entry.strip()]
    if len(entries) == 1 and "," not in setting:
        return list(range(int(entries[0])))
    return sorted({int(entry) for entry in entries})


def machine_gpu_count() -> int:
    """The NVIDIA GPUs this process can reach (NVML sees a container's devices, not CUDA_VISIBLE_DEVICES); 0
    where there is no driver."""
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError as error:
        log.info("no NVIDIA GPU found (%s): local jobs run on the CPU", error)
        return 0
    try:
        return pynvml.nvmlDeviceGetCount()
    finally:
        pynvml.nvmlShutdown()


def visible_gpus(count: int, environ: Mapping[str, str]) -> list[int]:
    """The indices of the `count` GPUs the server's CUDA_VISIBLE_DEVICES leaves visible. As CUDA reads it, the
    list ends at its first entry that names no device ("-1" hides them all)."""
    if count == 0:
        return []
    visible = environ.get("CUDA_VISIBLE_DEVICES")
    if visible is None:
        return list(range(count))
    devices: list[int] = []
    for entry in (entry.strip() for entry in visible.split(",")):
        if entry.startswith(("GPU-", "MIG-")):
            raise ValueError(
                f"CUDA_VISIBLE_DEVICES={visible} names devices by UUID; the platform gives jobs devices by index: "
                "set PLATFORM_GPUS to the indices of the GPUs it may use (e.g. PLATFORM_GPUS=0,1)"
            )
        if not entry.isdigit() or int(entry) >= count or int(entry) in devices:
            break
        devices.append(int(entry))
    return devices
