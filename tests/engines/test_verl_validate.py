"""Offline validation of verl command lines against verl's own configs (verl imported once, in-process)."""

from pathlib import Path

import pytest

from training_platform.engines.verl.validate import CommandError, split_command, validate

GRPO = [
    "python3",
    "-m",
    "verl.trainer.main_ppo",
    "algorithm.adv_estimator=grpo",
    "data.train_files=/d/train.parquet",
    "data.train_batch_size=16",
    "data.max_prompt_length=64",
    "data.max_response_length=32",
    "actor_rollout_ref.model.path=/models/m",
    "actor_rollout_ref.actor.ppo_mini_batch_size=16",
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4",
    "actor_rollout_ref.actor.use_kl_loss=true",
    "actor_rollout_ref.rollout.name=vllm",
    "actor_rollout_ref.rollout.n=4",
    "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4",
    "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4",
    "trainer.logger=[console,file]",
    "trainer.n_gpus_per_node=1",
]


def rooted(command: list[str], root: Path) -> list[str]:
    """The command with its made-up model and data paths moved under `root`: a server validates only commands whose
    paths lie under its data roots."""
    return [arg.replace("=/d/", f"={root}/d/").replace("=/models/", f"={root}/models/") for arg in command]


PPO = [*GRPO[:3], "algorithm.adv_estimator=gae", *GRPO[4:], "critic.ppo_micro_batch_size_per_gpu=4"]
GSPO = [
    *GRPO,
    "actor_rollout_ref.actor.policy_loss.loss_mode=gspo",
    "actor_rollout_ref.actor.loss_agg_mode=seq-mean-token-mean",
]
SFT = [
    "torchrun",
    "--standalone",
    "--nproc_per_node=2",
    "-m",
    "verl.trainer.sft_trainer",
    "model.path=/models/m",
    "data.train_files=/d/sft.parquet",
    "data.train_batch_size=8",
    "data.micro_batch_size_per_gpu=4",
    "trainer.logger=[console,file]",
    "engine.strategy=fsdp2",
]


@pytest.mark.parametrize("command", [GRPO, GSPO, SFT], ids=["grpo", "gspo", "sft"])
def test_valid_commands_pass(command):
    assert validate(command) == []


def test_ppo_with_a_critic_validates_against_a_local_model(demo_assets, tmp_path):
    # verl builds the critic's model config while validating: it needs a model it can open offline.
    assert validate([*PPO, f"critic.model.path={demo_assets['model']}"]) == []
    [problem] = validate([*PPO, f"critic.model.path={tmp_path / 'missing'}"])
    assert problem.override == "critic.model.path"


@pytest.mark.parametrize(
    ("extra", "override", "fragment"),
    [
        (["data.train_batch_size=5", "trainer.n_gpus_per_node=8"], "data.train_batch_size", "must be divisible"),
        (
            ["actor_rollout_ref.actor.ppo_mini_batch_size=32"],
            "data.train_batch_size",
            "must be >= actor.ppo_mini_batch_size",
        ),
        (
            ["actor_rollout_ref.actor.loss_agg_mode=foo"],
            "actor_rollout_ref.actor.loss_agg_mode",
            "Invalid loss_agg_mode: foo",
        ),
        (["trainer.bogus_key=1"], "trainer.bogus_key", "Could not override 'trainer.bogus_key'"),
        (["algorithm.adv_estimator=foo"], "algorithm.adv_estimator", "unknown advantage estimator 'foo'"),
        (["actor_rollout_ref.rollout.name=???"], "actor_rollout_ref.rollout.name", "is required"),
        (
            ["actor_rollout_ref.actor.policy_loss.loss_mode=nope"],
            "actor_rollout_ref.actor.policy_loss.loss_mode",
            "unknown policy loss",
        ),
        (["trainer.logger=[console,jsonl]"], "trainer.logger", "unknown logger backend 'jsonl'"),
        (["actor_rollout_ref.rollout.name=hf"], "actor_rollout_ref.rollout.name", "unknown rollout engine 'hf'"),
    ],
)
def test_failing_cases_name_the_override(extra, override, fragment):
    problems = validate([*GRPO, *extra])
    assert problems, "expected a problem"
    assert problems[0].override == override, problems
    assert fragment in problems[0].message


def test_sft_problems_are_named():
    problems = validate([*SFT, "engine.strategy=foo", "data.micro_batch_size_per_gpu=3"])
    assert {p.override for p in problems} >= {"engine.strategy", "data.micro_batch_size_per_gpu"}


def test_the_chat_template_is_checked(demo_assets, tmp_path):
    assert validate([*SFT, f"model.path={demo_assets['model']}"]) == []
    bare = tmp_path / "bare"
    bare.mkdir()
    for file in demo_assets["model"].iterdir():
        if file.name != "chat_template.jinja":
            (bare / file.name).write_bytes(file.read_bytes())
    config = (bare / "tokenizer_config.json").read_text().replace('"chat_template"', '"unused_template"')
    (bare / "tokenizer_config.json").write_text(config)
    [problem] = validate([*SFT, f"model.path={bare}"])
    assert problem.override == "model.path" and "no chat template" in problem.message


def test_not_a_verl_command():
    with pytest.raises(CommandError, match="no `-m <module>`"):
        split_command(["python", "train.py"])
    with pytest.raises(CommandError, match="unknown verl entry point"):
        split_command(["python", "-m", "verl.trainer.main_dpo"])
    assert split_command(SFT) == ("verl.trainer.sft_trainer", SFT[5:])


def test_one_validation_process_answers_many_commands_and_a_new_one_follows_a_dead_one():
    import os
    import signal
    import sys

    from training_platform.engines.verl.validator import ValidationWorker

    worker = ValidationWorker(sys.executable, {"HF_HUB_OFFLINE": "1"})
    try:
        [problem] = worker.validate([*GRPO, "data.bogus=1"])
        assert problem["override"] == "data.bogus"
        first = worker._process.pid
        assert worker.validate(GRPO) == [] and worker._process.pid == first  # verl imported once
        os.kill(first, signal.SIGKILL)
        assert worker.validate(GRPO) == [] and worker._process.pid != first
        [refused] = worker.validate(["python3", "-m", "not.verl"])
        assert refused["override"] == "command" and "unknown verl entry point" in refused["message"]
    finally:
        worker.close()
    assert worker._process is None
