"""No code from requests: the override guard, commands built from hostile job values, the validation processes'
environment and concurrency, and custom reward code as the engines check it."""

import importlib.util
import os
import sys
import threading
import time
from pathlib import Path

import pytest
from pydantic import ValidationError

from training_platform.contract.params import Algorithm, parse_params
from training_platform.contract.run import RunSpec
from training_platform.engines.registry import get_engine
from training_platform.engines.verl import validator
from training_platform.engines.verl.command import Target, VerlFiles, command
from training_platform.engines.verl.overrides import check, parsed_refusals, refusals
from training_platform.engines.verl.validate import compose, split_command
from training_platform.errors import InvalidInputError
from training_platform.settings import get_settings

CONFIG_DIR = Path(importlib.util.find_spec("verl").origin).parent / "trainer" / "config"
CPU = Target(sys.executable, "cpu")
RL = {"batch_size": 4, "rollout_n": 4, "micro_batch_size": 4, "max_steps": 3, "max_prompt_length": 64,
      "max_response_length": 32}  # fmt: skip
PPO_HEAD = ["python3", "-m", "verl.trainer.main_ppo"]

# (override, the key a refusal names): each form Hydra or OmegaConf would execute or resolve.
REFUSED = [
    ("+checkpoint.x._target_=os.makedirs", "checkpoint.x._target_"),
    ("actor_rollout_ref.actor._target_=os.system", "actor_rollout_ref.actor._target_"),
    ("actor_rollout_ref.actor.checkpoint._partial_=true", "actor_rollout_ref.actor.checkpoint._partial_"),
    ("algorithm._args_=[1]", "algorithm._args_"),
    ("algorithm._recursive_=false", "algorithm._recursive_"),
    ("algorithm._convert_=all", "algorithm._convert_"),
    ("+x=${oc.env:PLATFORM_ADMIN_TOKEN}", "x"),
    ("trainer.project_name=${oc.env:PLATFORM_ADMIN_TOKEN}", "trainer.project_name"),
    ("trainer.project_name='${oc.env:HOME}'", "trainer.project_name"),  # quoted: OmegaConf still resolves it
    ('trainer.project_name="a${oc.decode:x}b"', "trainer.project_name"),
    ("trainer.project_name=\\${oc.env:HOME}", "trainer.project_name"),  # escaped
    ("trainer.project_name=${trainer.experiment_name}", "trainer.project_name"),
    ("trainer.logger=[console,'${oc.env:HOME}']", "trainer.logger"),  # nested in a list
    ("actor_rollout_ref.model.override_config={a:{b:'${oc.env:HOME}'}}", "actor_rollout_ref.model.override_config"),
    ("actor_rollout_ref.actor.checkpoint={_target_:os.makedirs,name:/tmp/x}", "actor_rollout_ref.actor.checkpoint"),
    ("actor_rollout_ref.model.override_config=[{k:{_partial_:true}}]", "actor_rollout_ref.model.override_config"),
    ("+trainer.extra=1", "trainer.extra"),
    ("++trainer.extra=1", "trainer.extra"),
    ("+ray_kwargs.ray_init.runtime_env={env_vars:{A:b}}", "ray_kwargs.ray_init.runtime_env"),
    ("~trainer.logger", "trainer.logger"),
    ("~trainer.logger=[console]", "trainer.logger"),
    ("model_engine=../../../../tmp/evil", "model_engine"),  # a config group's file outside verl's configs
    ("actor@actor_rollout_ref.actor=../../tmp/evil", "actor@actor_rollout_ref.actor"),
    ("hydra.searchpath=[pkg://os]", "hydra.searchpath"),
    ("hydra/launcher=basic", "hydra/launcher"),
    ("defaults=[]", "defaults"),
    ("trainer.project_name='a\nb'", "trainer.project_name"),
    # What verl runs while building a model config (HFModelConfig.__post_init__): a shell for HDFS paths, imports.
    ("critic.model.path='hdfs://x;touch /tmp/p;'", "critic.model.path"),
    ("data.train_files=['/d/a.parquet','HDFS://x']", "data.train_files"),
    ("actor_rollout_ref.model.external_lib=antigravity", "actor_rollout_ref.model.external_lib"),
    ("critic.model.trust_remote_code=true", "critic.model.trust_remote_code"),
    ("critic.model={path:/m,external_lib:antigravity}", "critic.model"),
]
# What a hand-written verl command may say, the platform's own additions included.
ALLOWED = [
    "trainer.logger=[console,file]",
    "actor_rollout_ref.rollout.name=vllm",
    "model_engine=dp",
    "actor@actor_rollout_ref.actor=dp_actor",
    "actor_rollout_ref.model.path='/models/with _target_ in its name'",
    "data.train_files=['/d/a,b].parquet','/d/it''s.parquet']",
    "trainer.default_local_dir='/a/b=c'",
    "++actor_rollout_ref.actor.fsdp_config.mixed_precision={param_dtype:bf16,reduce_dtype:fp32}",
    "+actor_rollout_ref.model.override_config.attn_implementation=sdpa",
    "+ray_kwargs.ray_init._temp_dir='/tmp/tplat-ray/x'",
    "+actor_rollout_ref.rollout.enable_sleep_mode=False",
    "hydra.run.dir='/tmp/job/verl/hydra'",
    "data.val_files=null",
    "critic.model.trust_remote_code=false",
    "actor_rollout_ref.model.external_lib=null",
]


@pytest.mark.parametrize(("override", "key"), REFUSED, ids=[override for override, _ in REFUSED])
def test_each_form_that_runs_or_resolves_is_refused_with_its_key(override, key):
    [refusal] = refusals([override])
    assert refusal.key == key
    with pytest.raises(InvalidInputError) as caught:
        check(["trainer.nnodes=1", override], field="command")
    [error] = caught.value.errors
    assert error.field == "command" and f"'{key}'" in error.message


# A control character is the text check's alone: Hydra reads it as part of the string.
PARSED = [(override, key) for override, key in REFUSED if "\n" not in override]


@pytest.mark.parametrize(("override", "key"), PARSED, ids=[override for override, _ in PARSED])
def test_hydras_own_parser_refuses_the_same(override, key):
    [refusal] = parsed_refusals([override], CONFIG_DIR)
    assert refusal.key == key


def test_the_parser_knows_verls_config_groups():
    # The text check lets any option name through; only verl's own files are options.
    assert refusals(["model_engine=nope"]) == []
    [refusal] = parsed_refusals(["model_engine=nope"], CONFIG_DIR)
    assert refusal.key == "model_engine" and "dp, megatron" in refusal.reason


@pytest.mark.parametrize("override", ALLOWED)
def test_allowed_overrides_pass_both_checks(override):
    assert refusals([override]) == []
    assert parsed_refusals([override], CONFIG_DIR) == []


# --- commands from job values ----------------------------------------------------------------------------------

HOSTILE_PATHS = ["/m/x,y", "/m/x]", "/m/x'", '/m/x"', "/m/x\\", "/m/a\\'b", "/m/x=1 y", "/m/{a:1}", "/m/_target_"]


def job(tmp_path, algorithm=Algorithm.GRPO, model_path="/models/m", **params) -> RunSpec:
    values = RL if algorithm != Algorithm.SFT else {"max_steps": 2}
    return RunSpec(
        job_id="job1",
        model_path=model_path,
        dataset_paths=["/d/train.jsonl"],
        params=parse_params(algorithm, {**values, **params}),
        output_dir=str(tmp_path / "job1"),
    )


@pytest.mark.parametrize("path", HOSTILE_PATHS)
def test_a_hostile_path_reaches_verl_as_the_literal_string(tmp_path, path):
    from hydra.core.override_parser.overrides_parser import OverridesParser

    spec = job(tmp_path, model_path=path)
    argv = command(spec, CPU, VerlFiles(spec.layout.root))
    parsed = {o.key_or_group: o for o in OverridesParser.create().parse_overrides(split_command(argv)[1])}
    assert parsed["actor_rollout_ref.model.path"].value() == path
    config = compose("ppo_trainer", split_command(argv)[1])
    assert config.actor_rollout_ref.model.path == path


@pytest.mark.parametrize("path", ["/m/${oc.env:HOME}", "/m/x,${oc.env:HOME}", "/m/\\${x}", "/m/a\nb", "/m/a\tb"])
def test_a_path_omegaconf_would_resolve_is_refused_naming_the_field(tmp_path, path):
    spec = job(tmp_path, model_path=path)
    with pytest.raises(InvalidInputError) as caught:
        command(spec, CPU, VerlFiles(spec.layout.root))
    assert [error.field for error in caught.value.errors] == ["model_path"]
    with pytest.raises(ValidationError) as refused:
        parse_params(Algorithm.PPO, {**RL, "reward_model_path": path})
    assert refused.value.errors()[0]["loc"] == ("reward_model_path",)


@pytest.mark.parametrize("module", ["x,${oc.env:HOME}", "]", "'", "q_proj\nv_proj", "q_proj]", "a b", "x=1", ""])
def test_lora_target_modules_are_module_names(tmp_path, module):
    with pytest.raises(ValidationError) as caught:
        parse_params(Algorithm.SFT, {"lora": {"target_modules": ["q_proj", module]}})
    assert caught.value.errors()[0]["loc"][:2] == ("lora", "target_modules")


def test_lora_target_modules_reach_verl_as_a_list_of_strings(tmp_path):
    from hydra.core.override_parser.overrides_parser import OverridesParser

    modules = ["q_proj", "model.layers.0.mlp.up_proj", "_target_"]
    spec = job(tmp_path, Algorithm.SFT, lora={"target_modules": modules})
    overrides = split_command(command(spec, CPU, VerlFiles(spec.layout.root)))[1]
    parsed = {o.key_or_group: o for o in OverridesParser.create().parse_overrides(overrides)}
    assert parsed["model.target_modules"].value() == modules
    assert parsed["model.lora_rank"].value() == 16  # numbers stay numbers
    all_linear = job(tmp_path, Algorithm.SFT, lora={"rank": 8})
    overrides = split_command(command(all_linear, CPU, VerlFiles(all_linear.layout.root)))[1]
    assert "model.target_modules='all-linear'" in overrides


@pytest.mark.parametrize("algorithm", [Algorithm.SFT, Algorithm.GRPO, Algorithm.GSPO, Algorithm.PPO])
@pytest.mark.parametrize("target", [CPU, Target(sys.executable, "cuda", flash_attention=True)], ids=["cpu", "cuda"])
def test_the_platforms_own_commands_pass_both_checks(tmp_path, algorithm, target):
    extra = {"reward_model_path": "/models/rm"} if algorithm == Algorithm.PPO else {}
    spec = job(tmp_path, algorithm, lora={"target_modules": ["q_proj"]}, cpu_offload="all", **extra)
    overrides = split_command(command(spec, target, VerlFiles(spec.layout.root)))[1]
    assert refusals(overrides) == [] and parsed_refusals(overrides, CONFIG_DIR) == []


# --- the validate endpoint's engine call ------------------------------------------------------------------------


def test_a_refused_override_never_reaches_the_validation_process(monkeypatch):
    def never(argv):
        raise AssertionError("the validation process was asked")

    monkeypatch.setattr("training_platform.engines.verl.engine.validate_command", never)
    with pytest.raises(InvalidInputError) as caught:
        get_engine("verl").validate([*PPO_HEAD, "trainer.nnodes=1", "+checkpoint.x._target_=os.makedirs"])
    [error] = caught.value.errors
    assert error.field == "command" and "'checkpoint.x._target_'" in error.message


def test_a_refusal_of_the_validation_process_is_a_422_too():
    # The text check lets `model_engine=nope` through; the real validation process refuses it with Hydra's parser.
    with pytest.raises(InvalidInputError) as caught:
        get_engine("verl").validate([*PPO_HEAD, "model_engine=nope"])
    assert caught.value.errors[0].field == "command"


# --- the validation processes: environment, concurrency, answers -------------------------------------------------

SECRETS = {
    "PLATFORM_ADMIN_TOKEN": "admin-token-canary-1234",
    "PLATFORM_DATABASE_URL": "postgresql://u:db-password-canary@h/d",
    "PLATFORM_SECRET_KEY": "secret-key-canary-5678",
    "PLATFORM_MILVUS_TOKEN": "milvus-token-canary",
    "HF_TOKEN": "hf-token-canary",
}


def test_a_validation_process_gets_a_clean_environment(monkeypatch):
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    worker = validator.ValidationWorker(sys.executable, {"VERL_USE_EXTERNAL_MODULES": "x.plugin"})
    try:
        [problem] = worker.validate(["python3", "-m", "not.verl"])  # answered without importing verl
        assert "unknown verl entry point" in problem["message"]
        raw = Path(f"/proc/{worker._process.pid}/environ").read_bytes()
        environ = dict(item.split("=", 1) for item in raw.decode().split("\0") if "=" in item)
    finally:
        worker.close()
    assert not set(SECRETS) & set(environ)
    assert not [value for value in SECRETS.values() if value in raw.decode()]
    assert environ["VERL_USE_EXTERNAL_MODULES"] == "x.plugin" and environ["PATH"] == os.environ["PATH"]


def test_answers_never_carry_a_secret_of_the_servers_environment():
    message = "could not read postgresql://u:db-password-canary@h/d or admin-token-canary-1234 in /home/x"
    redacted = validator.redact(message, SECRETS)
    assert redacted == "could not read *** or *** in /home/x"


def test_validations_beyond_the_limit_wait_then_are_refused(monkeypatch):
    running, release = [], threading.Event()

    def busy(self, argv):
        running.append(self)
        release.wait(10)
        return []

    monkeypatch.setattr(validator.ValidationWorker, "validate", busy)
    pool = validator.ValidationPool(sys.executable, {}, size=2, wait_seconds=0.3)
    threads = [threading.Thread(target=pool.validate, args=(["x"],)) for _ in range(2)]
    for thread in threads:
        thread.start()
    while len(running) < 2:
        time.sleep(0.01)
    began = time.monotonic()
    with pytest.raises(validator.ValidationBusyError, match="all 2 verl validation processes are busy"):
        pool.validate(["x"])
    assert time.monotonic() - began >= 0.3  # it waited for a slot first
    release.set()
    for thread in threads:
        thread.join()
    assert pool.validate(["x"]) == []  # a slot is free again, and its process kept
    assert len({id(worker) for worker in running}) == 2


# --- custom reward code, as the engines check it ---------------------------------------------------------------


@pytest.fixture
def reward_code_dir(tmp_path, monkeypatch):
    directory = tmp_path / "reward_code"
    directory.mkdir()
    (directory / "rewards.py").write_text("def score(completion, reference, row):\n    return 1.0\n")
    monkeypatch.setenv("PLATFORM_REWARD_CODE_DIR", str(directory))
    get_settings.cache_clear()
    yield directory
    get_settings.cache_clear()


def custom_job(tmp_path, function: str) -> RunSpec:
    return job(tmp_path, rewards=[{"type": "format_check"}, {"type": "custom", "function": function}])


@pytest.mark.parametrize("engine", ["verl", "trl"])
def test_engines_refuse_reward_code_outside_the_directory(tmp_path, reward_code_dir, engine):
    (tmp_path / "evil.py").write_text("def score(completion, reference, row):\n    return 1.0\n")
    for function in (f"{tmp_path}/evil.py:score", "../evil.py:score"):
        [error] = get_engine(engine).check(custom_job(tmp_path, function))
        assert error.field == "params.rewards.1.function" and "reward code directory" in error.message
        with pytest.raises(InvalidInputError):
            get_engine(engine).launch_spec(custom_job(tmp_path, function))


@pytest.mark.parametrize("engine", ["verl", "trl"])
def test_no_reward_code_directory_no_custom_rewards(tmp_path, monkeypatch, engine):
    monkeypatch.delenv("PLATFORM_REWARD_CODE_DIR", raising=False)
    get_settings.cache_clear()
    try:
        [error] = get_engine(engine).check(custom_job(tmp_path, "rewards.py:score"))
    finally:
        get_settings.cache_clear()
    assert error.field == "params.rewards.1.function" and "disabled" in error.message


def test_the_training_process_gets_the_directory(tmp_path, reward_code_dir, demo_assets):
    spec = job(
        tmp_path, model_path=str(demo_assets["model"]), rewards=[{"type": "custom", "function": "rewards.py:score"}]
    )
    spec = spec.model_copy(update={"dataset_paths": [str(demo_assets["grpo"])]})
    assert get_engine("trl").check(spec) == []
    argv = get_engine("trl").launch_spec(spec).argv
    assert argv[-2:] == ["--reward-code-dir", str(reward_code_dir)]
    get_engine("verl").launch_spec(spec)
    shim = VerlFiles(spec.layout.root).reward
    namespace: dict = {}
    exec(compile(shim.read_text(), str(shim), "exec"), namespace)  # what verl's reward worker does with it
    assert namespace["compute_score"]("d", "any answer", None, {"row": "{}"}) == 1.0
