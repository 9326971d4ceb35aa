"""The platform's plugin inside verl's processes, loaded by verl itself (VERL_USE_EXTERNAL_MODULES): importing it
applies the patches the environment switches on, one module each (patching.py holds what they share):

- trl_check.py, always: verl 0.9.1's "is TRL installed" check, which TRL ≥ 1.13 fails, narrowed to what verl needs.
- ray_worker_mode.py, TORCHELASTIC_RUN_ID (set by torchrun): torchrun's processes inside a Ray job leave the Ray
  worker mode they inherit.
- cpu_platform.py, VERL_PLATFORM=cpu: a CPU platform for verl, and vLLM's CPU build as its rollout engine.
- job_hooks.py, PLATFORM_JOB_DIR / PLATFORM_JOB_ID: the job's status file kept from verl's tracking calls, and its
  pause requests ended at a step with a checkpoint.
- layer_grad_norms.py, PLATFORM_LAYER_GRAD_NORMS_EVERY=N: per-layer gradient norms every N steps.

All of it acts by wrapping verl's and vLLM's functions and classes at run time; their source is never changed.
"""

import os
from pathlib import Path

from training_platform.engines.verl.plugin.cpu_platform import install_cpu_platform
from training_platform.engines.verl.plugin.job_hooks import install_job_hooks
from training_platform.engines.verl.plugin.layer_grad_norms import LAYER_GRAD_NORMS_EVERY, install_layer_grad_norms
from training_platform.engines.verl.plugin.ray_worker_mode import leave_ray_worker_mode
from training_platform.engines.verl.plugin.trl_check import narrow_trl_check

narrow_trl_check()
if os.environ.get("TORCHELASTIC_RUN_ID"):  # set by torchrun
    leave_ray_worker_mode()
if os.environ.get("VERL_PLATFORM") == "cpu":
    install_cpu_platform()
if os.environ.get("PLATFORM_JOB_DIR") and os.environ.get("PLATFORM_JOB_ID"):
    install_job_hooks(Path(os.environ["PLATFORM_JOB_DIR"]), os.environ["PLATFORM_JOB_ID"])
if os.environ.get(LAYER_GRAD_NORMS_EVERY, "0").isdigit() and int(os.environ.get(LAYER_GRAD_NORMS_EVERY, "0")) > 0:
    install_layer_grad_norms(int(os.environ[LAYER_GRAD_NORMS_EVERY]))
