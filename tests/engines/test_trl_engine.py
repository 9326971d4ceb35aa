"""The TRL engine's platform side: launch command, refusals, and the checkpoint layout."""

import json
import sys

import pytest

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


def test_ppo_and_zero_stage_1_are_refused_with_a_reason(tmp_path):
    engine = get_engine("trl")
    assert Algorithm.PPO not in engine.algorithms
    assert "TRL no longer ships a PPO trainer" in engine.unsupported_message(Algorithm.PPO)
    [stage] = engine.refusals(run_spec(tmp_path, num_gpus=2, batch_size=16, zero_stage=1).params)
    assert stage.field == "params.zero_stage"
    assert stage.message == "the trl engine does not shard with zero_stage 1; it applies 0, 2, 3"
    for zero_stage in (None, 0, 2, 3):
        assert engine.refusals(run_spec(tmp_path, num_gpus=8, batch_size=32, zero_stage=zero_stage).params) == []
    assert engine.refusals(run_spec(tmp_path, Algorithm.GSPO, batch_size=2, rollout_n=4).params) == []


def test_packing_is_asked_of_the_engine_that_packs(tmp_path):
    packed = run_spec(tmp_path, packing=True).params
    assert get_engine("trl").refusals(packed) == []
    [refusal] = get_engine("verl").refusals(packed)
    assert (refusal.field, refusal.message) == (
        "params.packing",
        "the verl engine does not pack SFT samples: leave packing unset or false",
    )
    assert get_engine("verl").refusals(run_spec(tmp_path).params) == []  # unset: the engine's way
    for packing, expected in ((None, (True, True, 1)), (False, (False, False, 4))):
        arguments = get_engine("trl").render(run_spec(tmp_path, micro_batch_size=4, packing=packing), "cpu")
        trl = arguments["trl_arguments"]
        assert (trl["packing"], trl["padding_free"], trl["per_device_train_batch_size"]) == expected


def test_a_run_spanning_several_ray_nodes_is_refused_naming_the_gpus(tmp_path):
    engine = get_engine("trl")
    one_node = run_spec(tmp_path, num_gpus=4, batch_size=16).model_copy(update={"nnodes": 1})
    assert engine.check(one_node) == []
    [error] = engine.check(one_node.model_copy(update={"nnodes": 2}))
    assert error.field == "params.num_gpus"
    assert error.message.startswith("the trl engine trains on one node; 4 GPUs span 2 nodes of the Ray cluster")


def launched(argv: list[str]):
    """What accelerate's launcher makes of a command line: its arguments, and the environment its workers get."""
    from accelerate.commands.launch import _validate_launch_command, launch_command_parser
    from accelerate.utils.launch import prepare_multi_gpu_env

    assert argv[:3] == [sys.executable, "-m", "accelerate.commands.launch"]
    args, _, _ = _validate_launch_command(launch_command_parser().parse_args(argv[3:]))
    return args, prepare_multi_gpu_env(args)


def test_a_job_on_several_devices_runs_one_process_per_device_with_ddp(tmp_path):
    run = run_spec(tmp_path, learning_rate=1e-4, max_steps=3, batch_size=16, micro_batch_size=2, num_gpus=4)
    spec = get_engine("trl").launch_spec(run)
    config_file = run.layout.root / "accelerate_config.json"
    assert spec.argv == [
        sys.executable,
        *("-m", "accelerate.commands.launch", "--config_file", str(config_file)),
        *("--num_processes", "4", "--main_process_port", "0"),
        *("-m", "training_platform.engines.trl", "--config", str(run.layout.config_path)),
    ]
    settings = json.loads(config_file.read_text())
    assert (settings["distributed_type"], settings["num_processes"], settings["gpu_ids"]) == ("MULTI_GPU", 4, "all")
    args, env = launched(spec.argv)
    # torch.distributed.run starts the processes: 4 on the devices the job was given (CUDA_VISIBLE_DEVICES).
    assert args.multi_gpu and not args.use_fsdp and args.nproc_per_node == "4" and args.main_process_port > 0
    assert args.module and args.training_script == "training_platform.engines.trl"
    assert args.training_script_args == ["--config", str(run.layout.config_path)]
    assert env["ACCELERATE_MIXED_PRECISION"] == "no" and "ACCELERATE_USE_FSDP" not in env
    # 16 samples a step = 2 per pass x 4 processes x 2 accumulated passes.
    assert get_engine("trl").render(run, "cuda")["trl_arguments"]["gradient_accumulation_steps"] == 2


@pytest.mark.parametrize("zero_stage, strategy", [(2, "SHARD_GRAD_OP"), (3, "FULL_SHARD")])
def test_zero_stages_2_and_3_shard_with_fsdp_and_checkpoint_whole_models(tmp_path, zero_stage, strategy):
    run = run_spec(tmp_path, batch_size=16, num_gpus=2, zero_stage=zero_stage, gradient_checkpointing=True)
    args, env = launched(get_engine("trl").launch_spec(run).argv)
    assert args.use_fsdp and args.nproc_per_node == "2"
    assert env["ACCELERATE_USE_FSDP"] == "true" and env["FSDP_VERSION"] == "1"
    assert env["FSDP_SHARDING_STRATEGY"] == strategy
    assert env["FSDP_AUTO_WRAP_POLICY"] == "TRANSFORMER_BASED_WRAP"
    assert env["FSDP_STATE_DICT_TYPE"] == "FULL_STATE_DICT"  # checkpoints hold model.safetensors, as on one device
    assert env["FSDP_USE_ORIG_PARAMS"] == "true" and env["FSDP_OFFLOAD_PARAMS"] == "false"
    # FSDP checkpoints the layers itself; the trainer's own checkpointing would gather every layer twice.
    assert env["FSDP_ACTIVATION_CHECKPOINTING"] == "true"
    assert get_engine("trl").render(run, "cuda")["trl_arguments"]["gradient_checkpointing"] is False


def test_one_device_keeps_the_trainers_own_checkpointing_whatever_the_zero_stage(tmp_path):
    run = run_spec(tmp_path, batch_size=16, zero_stage=3, gradient_checkpointing=True)
    assert get_engine("trl").render(run, "cuda")["trl_arguments"]["gradient_checkpointing"] is True
    assert get_engine("trl").launch_spec(run).argv[1:3] == ["-m", "training_platform.engines.trl"]


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
