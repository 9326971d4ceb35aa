"""Switched on by TORCHELASTIC_RUN_ID (torchrun sets it in its processes): verl's Worker asks Ray for the process's
accelerator ids when a RAY_EXPERIMENTAL_NOSET_*_VISIBLE_DEVICES flag is set. torchrun's processes started inside a
Ray job (run mode ray) inherit those flags from the job's driver without being Ray workers; the flags are dropped."""

import os


def leave_ray_worker_mode() -> None:
    """torchrun's processes are not Ray workers, but started inside a Ray job (run mode ray) they inherit
    the job driver's RAY_EXPERIMENTAL_NOSET_*_VISIBLE_DEVICES flags, and verl's Worker then asks Ray for
    accelerator ids these processes do not have."""
    for name in [name for name in os.environ if name.startswith("RAY_EXPERIMENTAL_NOSET_")]:
        del os.environ[name]
