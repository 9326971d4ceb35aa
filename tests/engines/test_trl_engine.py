"""The TRL engine's platform side: launch command, refusals, and the checkpoint layout."""

import json
import sys

from training_platform.engines import get_engine
from training_platform.engines.base import RunRequest
from training_platform.engines.trl.checkpoints import COMPLETE_MARKER, list_checkpoints, mark_complete
from training_platform.engines.trl.run_config import RunConfig
from training_platform.jobs.layout import JobLayout
from training_platform.jobs.params import Algorithm, parse_params


def run_request(tmp_path, algorithm=Algorithm.SFT, **params) -> RunRequest:
    return RunRequest(
        job_id="abc",
        algorithm=algorithm,
        model_path="/models/m",
        dataset_paths=["/data/d.jsonl"],
        eval_dataset_path=None,
        params=parse_params(algorithm, params),
        layout=JobLayout("abc", tmp_path / "abc"),
    )


def test_launch_spec_is_an_argument_list_with_the_run_config(tmp_path):
    request = run_request(tmp_path, learning_rate=1e-4, max_steps=3, batch_size=4, micro_batch_size=2)
    spec = get_engine("trl").launch_spec(request, cpu_threads=2)
    config_path = request.layout.config_path
    assert spec.argv == [sys.executable, "-m", "training_platform.engines.trl", "--config", str(config_path)]
    assert spec.cwd == request.layout.root
    assert spec.env["HF_HUB_OFFLINE"] == "1" and spec.env["OMP_NUM_THREADS"] == "2"
    config = RunConfig.load(config_path)
    assert config.training_params().gradient_accumulation_steps == 2
    assert json.loads(config_path.read_text())["params"]["max_steps"] == 3


def test_ppo_and_multi_gpu_are_refused_with_a_reason(tmp_path):
    engine = get_engine("trl")
    assert Algorithm.PPO not in engine.algorithms
    assert "TRL no longer ships a PPO trainer" in engine.unsupported_message(Algorithm.PPO)
    [gpus] = engine.check(run_request(tmp_path, num_gpus=2, batch_size=16))
    assert gpus.field == "params.num_gpus"
    assert engine.check(run_request(tmp_path, Algorithm.GSPO, batch_size=2, rollout_n=4)) == []


def test_torn_checkpoints_are_listed_but_never_resumed_from(tmp_path):
    layout = JobLayout("abc", tmp_path)
    for step in (10, 5, 15):
        directory = layout.checkpoints_dir / f"checkpoint-{step}"
        directory.mkdir(parents=True)
        (directory / "model.safetensors").write_bytes(b"x" * step)
        if step != 15:  # 15 was being written when the process died
            mark_complete(directory)
    (layout.checkpoints_dir / "checkpoint-oops").mkdir()
    layout.final_model_dir.mkdir()
    found = list_checkpoints(layout)
    assert [(c.name, c.step, c.complete, c.kind) for c in found] == [
        ("checkpoint-5", 5, True, "checkpoint"),
        ("checkpoint-10", 10, True, "checkpoint"),
        ("checkpoint-15", 15, False, "checkpoint"),
        ("final", None, False, "final"),
    ]
    assert found[0].size_bytes == 5 + len((layout.checkpoints_dir / "checkpoint-5" / COMPLETE_MARKER).read_bytes())
    assert get_engine("trl").latest_complete_checkpoint(layout).name == "checkpoint-10"
