"""The engine registry: engines named by where they live and imported on first use, a name registered once, and
`auto` choosing an engine that can run the algorithm on the job's devices."""

import subprocess
import sys

import pytest

from training_platform.contract.params import Algorithm
from training_platform.engines import registry
from training_platform.errors import InvalidInputError


def test_importing_the_registry_imports_no_engine():
    probe = (
        "import sys, training_platform.engines.registry as r; "
        "print(sorted(m for m in sys.modules if m.startswith('training_platform.engines.') and m.count('.') > 2))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_a_name_is_registered_once():
    with pytest.raises(ValueError, match="already registered"):
        registry.register_engine("trl", "somewhere.else:Engine")
    with pytest.raises(ValueError, match="already registered"):
        registry.register_engine("auto", "somewhere.else:Engine")


def test_an_unknown_engine_names_the_available_ones():
    with pytest.raises(InvalidInputError) as refused:
        registry.get_engine("deepspeed")
    [error] = refused.value.errors
    assert error.field == "engine" and "available: trl, verl, auto" in error.message


def test_auto_picks_an_engine_that_can_run_the_algorithm_on_the_jobs_devices():
    assert registry.choose_engine("auto", Algorithm.DPO).name == "trl"  # verl has no DPO trainer
    assert registry.choose_engine("auto", Algorithm.SFT, num_gpus=4).name == "verl"  # both can; verl comes first
    assert registry.choose_engine("auto", Algorithm.PPO).name == "verl"  # TRL has no PPO
    assert [e.name for e in registry.capable_engines(Algorithm.GRPO, 1, "mps")] == ["trl"]
    assert [e.name for e in registry.capable_engines(Algorithm.DPO, 2)] == ["trl"]
