"""The environment verl jobs run in: the server's own, or another interpreter (the CPU RL profile)."""

import sys
import venv

from training_platform.engines.verl.environment import probe


def test_the_servers_own_environment_is_asked_in_process():
    environment = probe(sys.executable)
    assert environment.has_verl and environment.problem is None
    assert environment.rollout_engine is None  # the platform's environment has no vLLM


def test_another_interpreter_is_asked_in_a_subprocess(tmp_path):
    venv.create(tmp_path / "bare", with_pip=False)
    environment = probe(str(tmp_path / "bare" / "bin" / "python"))
    assert environment.packages == frozenset() and environment.problem is None
    assert not environment.has_verl
    assert environment.missing_verl_message() == f"verl is not installed in {environment.python} (settings.verl_python)"


def test_an_interpreter_that_cannot_run_is_named_in_the_message(tmp_path):
    environment = probe(str(tmp_path / "no" / "python"))
    assert not environment.has_verl
    assert environment.missing_verl_message().startswith(f"the verl environment {tmp_path / 'no' / 'python'} cannot")
