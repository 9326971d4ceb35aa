"""The TRL engine's platform side: launch command, refusals, and the checkpoint layout."""

import json
import sys

from training_platform.contract.layout import JobLayout
from training_platform.contract.params import Algorithm, parse_params
from training_platform.contract.run import RunSpec
from training_platform.engines.registry import get_engine
from training_platform.engines.trl.checkpoints import COMPLETE_MARKER, list_checkpoints, mark_complete


def run_spec(tmp_path, algorithm=Algorithm.SFT, **params) -> RunSpec:
    return RunSpec(
        job_id="abc",
        model_path="/models/m",
        dataset_paths=["/data/d.jsonl"],
        params=parse_params(algorithm, params),
        output_dir=str(tmp_path / "abc"),
        cpu_threads=2,
    )


def test_launch_spec_is_an_argument_list_with_the_run_config(tmp_path):
    run = run_spec(tmp_path, learning_rate=1e-4, max_steps=3, batch_size=4, micro_batch_size=2)
    spec = get_engine("trl").launch_spec(run)
    config_path = run.layout.config_path
    assert spec.argv == [sys.executable, "-m", "training_platform.engines.trl", "--config", str(config_path)]
    assert spec.cwd == run.layout.root
    assert spec.env["HF_HUB_OFFLINE"] == "1" and spec.env["OMP_NUM_THREADS"] == "2"
    assert RunSpec.load(config_path) == run
    assert json.loads(config_path.read_text())["params"]["max_steps"] == 3


def test_ppo_and_multi_gpu_are_refused_with_a_reason(tmp_path):
    engine = get_engine("trl")
    assert Algorithm.PPO not in engine.algorithms
    assert "TRL no longer ships a PPO trainer" in engine.unsupported_message(Algorithm.PPO)
    [gpus] = engine.refusals(run_spec(tmp_path, num_gpus=2, batch_size=16).params)
    assert gpus.field == "params.num_gpus" and "one device per job" in gpus.message
    assert engine.refusals(run_spec(tmp_path, Algorithm.GSPO, batch_size=2, rollout_n=4).params) == []


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
