"""What a process the platform starts inherits from the server's environment.

A training run (and any other process of the platform's: a validation, an export) needs to find its tools, its
devices and its caches; it must not see the server's credentials: the database URL with its password, the admin
token, the secret key, a Milvus or cloud token. So it gets only the variables named here (the platform's own
variables for the job are added by whoever starts it), and never one whose name says it is a secret.
"""

import os
import re
from collections.abc import Mapping

INHERITED_NAMES = frozenset(
    {
        "PATH",
        "HOME",
        "USER",
        "LOGNAME",
        "SHELL",
        "LANG",
        "LANGUAGE",
        "TZ",
        "TERM",
        "TMPDIR",
        "TEMP",
        "TMP",
        "PYTHONPATH",
        "VIRTUAL_ENV",
        "LD_LIBRARY_PATH",
        "XDG_CACHE_HOME",
        # The server's data directory: the test harness finds a server's leftover runs by it.
        "PLATFORM_HOME",
    }
)
INHERITED_PREFIXES = (
    "LC_",
    "CUDA_",
    "NCCL_",
    "NVIDIA_",
    "HF_",
    "TRANSFORMERS_",
    "TORCH_",
    "PYTORCH_",
    "TORCHINDUCTOR_",
    "ACCELERATE_",
    "TRITON_",
    "OMP_",
    "MKL_",
    "KMP_",
    "OPENBLAS_",
    "NUMEXPR_",
    "GLOO_",
    "VERL_",
    "VLLM_",
    "RAY_",
    "ROCR_",
    "HIP_",
    "HSA_",
)
# Left out even where a prefix above would let it through (HF_TOKEN, RAY_AUTH_TOKEN, ...).
SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|API_?KEY|ACCESS_KEY|PRIVATE_KEY|AUTH", re.IGNORECASE)


def inherited_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The part of `environ` (the server's environment by default) a started process may see."""
    environ = os.environ if environ is None else environ
    return {
        name: value
        for name, value in environ.items()
        if (name in INHERITED_NAMES or name.startswith(INHERITED_PREFIXES)) and not SECRET_NAME.search(name)
    }
