"""Accelerators the configurator knows: memory, bandwidth and dense bf16 throughput.

NVIDIA memory is what `nvidia-smi` reports as total (MiB); bandwidth and dense (no sparsity) bf16
tensor throughput are NVIDIA's datasheet figures. Apple Silicon shares one memory between CPU and
GPU; Metal lets one process keep about 75% of it resident (its `recommendedMaxWorkingSetSize`), so
that is what the configurator counts as usable; throughput is the GPU's fp32 rate (approximate:
Apple GPUs run bf16 at about the fp32 rate). `cpu` is this machine's RAM, for training on the CPU.
"""

from dataclasses import dataclass

import psutil

from training_platform.errors import FieldError, InvalidInputError

MiB, GiB = 2**20, 2**30
APPLE_USABLE_FRACTION = 0.75


@dataclass(frozen=True)
class Gpu:
    name: str
    memory_bytes: int  # what one process can use
    bandwidth_gbs: float
    bf16_tflops: float
    kind: str  # "cuda", "mps" or "cpu"
    note: str = ""
    # RAM of a typical machine of this class, which its GPUs share for offloading (an assumption; requests can
    # override it): 8-GPU datacenter nodes carry ~2 TiB (DGX A100 40G: 1 TiB), L40S servers ~1 TiB,
    # workstations ~128 GiB.
    host_memory_bytes: int = 0

    @property
    def memory_gib(self) -> float:
        return self.memory_bytes / GiB


def _nvidia(name: str, mib: int, bandwidth: float, tflops: float, host_gib: int) -> Gpu:
    return Gpu(name, mib * MiB, bandwidth, tflops, "cuda", host_memory_bytes=host_gib * GiB)


def _apple(name: str, unified_gb: int, bandwidth: float, tflops: float) -> Gpu:
    usable = int(unified_gb * GiB * APPLE_USABLE_FRACTION)
    note = f"{unified_gb} GB unified memory, of which ~{APPLE_USABLE_FRACTION:.0%} is usable by MPS"
    return Gpu(name, usable, bandwidth, tflops, "mps", note)


CATALOG: dict[str, Gpu] = {
    gpu.name: gpu
    for gpu in (
        _nvidia("RTX-4090", 24564, 1008, 165.2, 128),
        _nvidia("RTX-5090", 32607, 1792, 209.5, 128),
        _nvidia("A100-40G", 40960, 1555, 312, 1024),
        _nvidia("A100-80G", 81920, 2039, 312, 2048),
        _nvidia("H100-80G", 81559, 3350, 989, 2048),
        _nvidia("H200-141G", 143771, 4800, 989, 2048),
        _nvidia("L40S-48G", 46068, 864, 362, 1024),
        _apple("Apple-M1-16G", 16, 68, 2.6),
        _apple("Apple-M2-24G", 24, 100, 3.6),
        _apple("Apple-M3-Pro-36G", 36, 150, 7.4),
        _apple("Apple-M3-Max-128G", 128, 400, 16.4),
        _apple("Apple-M4-Pro-48G", 48, 273, 9.2),
        _apple("Apple-M4-Max-128G", 128, 546, 18.4),
        _apple("Apple-M2-Ultra-192G", 192, 800, 27.2),
    )
}


def cpu_device() -> Gpu:
    return Gpu("cpu", psutil.virtual_memory().total, 0.0, 0.0, "cpu", "this machine's RAM (training on the CPU)")


def catalog() -> list[Gpu]:
    return [*CATALOG.values(), cpu_device()]


def get_gpu(name: str, field: str = "gpu") -> Gpu:
    if name == "cpu":
        return cpu_device()
    for key, gpu in CATALOG.items():
        if key.lower() == name.lower():
            return gpu
    raise InvalidInputError([FieldError(field, f"unknown GPU '{name}'; known: {', '.join([*CATALOG, 'cpu'])}")])
