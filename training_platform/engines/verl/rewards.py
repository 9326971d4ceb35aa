"""The platform's rule rewards as verl's custom reward function.

verl calls `compute_score(data_source, solution_str, ground_truth, extra_info)` from the file named by
`reward.custom_reward_function.path`; the engine writes a short file into the job's directory that binds the
job's reward specs (and the server's reward code directory, where custom functions are imported from) to
`make_compute_score` below, so both engines score with the same module.
"""

import json
from collections.abc import Callable
from pathlib import Path

from training_platform.rewards import RewardSpec, build_reward_function

SHIM = '''"""Reward function of this job for verl (written by the platform)."""
from training_platform.engines.verl.rewards import make_compute_score

compute_score = make_compute_score({specs!r}, {code_dir!r})
'''


def make_compute_score(specs_json: str, code_dir: str | None = None) -> Callable:
    specs = [RewardSpec.model_validate(spec) for spec in json.loads(specs_json)]
    directory = Path(code_dir) if code_dir else None
    scorers = [(spec.weight, build_reward_function(spec, directory)) for spec in specs]

    def compute_score(data_source, solution_str, ground_truth, extra_info=None, **_):
        row = json.loads(extra_info["row"]) if extra_info and "row" in extra_info else {}
        return float(sum(weight * scorer([solution_str], [row])[0] for weight, scorer in scorers))

    return compute_score


def write_reward_file(path: Path, specs: list[RewardSpec], code_dir: Path | None = None) -> Path:
    """The shim; `specs` and `code_dir` are written as Python string literals (repr), never as code."""
    specs_json = json.dumps([spec.model_dump(mode="json") for spec in specs])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SHIM.format(specs=specs_json, code_dir=str(code_dir) if code_dir else None), encoding="utf-8")
    return path
