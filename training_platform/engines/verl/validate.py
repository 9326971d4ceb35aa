"""Offline validation of a verl command line, without starting anything (and without a GPU).

Stages, each naming the override it blames: the guard against overrides Hydra or OmegaConf would execute or
resolve (overrides.py, here with Hydra's own parser; these come back `refused`, nothing of the command composed,
and the platform answers them with a 422), Hydra composition against verl's own configs (unknown keys, bad
syntax), mandatory `???` values, resolution of verl's interpolations, conversion of config groups to verl's
dataclasses (whose __post_init__ checks values such as loss_agg_mode), registry checks verl only does once
running (advantage estimator, policy loss, rollout engine, logger backends), and for PPO-family runs verl's own
`validate_config` (batch-size divisibility and the like).

`python -m training_platform.engines.verl.validate [--json] -- <command>` runs it in its own process: it
imports verl (~8 s), which the platform server does not. With `--serve` the process answers one command per
line of its input (validator.py keeps one such process for the platform).
"""

import argparse
import contextlib
import importlib.util
import json
import os
import re
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from training_platform.engines.verl.overrides import parsed_refusals, refusals

ENTRY_CONFIGS = {
    "verl.trainer.main_ppo": "ppo_trainer",
    "verl.trainer.sft_trainer": "sft_trainer_engine",
    "verl.trainer.sft_trainer_ray": "sft_trainer_engine",
}
ROLLOUT_ENGINES = ("vllm", "sglang", "trtllm")
# Mandatory values that only matter when their feature is on.
_OPTIONAL_MISSING = {"reward.reward_model.rollout.name": "reward.reward_model.enable"}
# Names verl's messages use for a quantity derived from an override.
_DERIVED = {"real_train_batch_size": "data.train_batch_size", "minimal possible batch size": "trainer.n_gpus_per_node"}


@dataclass(frozen=True)
class Problem:
    override: str  # the override (or config key) to change
    message: str
    refused: bool = False  # not composed at all: Hydra or OmegaConf would have executed or resolved it

    def __str__(self) -> str:
        return f"{self.override}: {self.message}"


class CommandError(ValueError):
    """The command line is not a verl entry point with overrides."""


def split_command(argv: list[str]) -> tuple[str, list[str]]:
    """(entry module, Hydra overrides) of `python -m verl.trainer.X k=v ...` or `torchrun ... -m verl... k=v`."""
    if "-m" not in argv:
        raise CommandError("no `-m <module>` in the command: expected e.g. python3 -m verl.trainer.main_ppo k=v ...")
    index = len(argv) - 1 - argv[::-1].index("-m")  # torchrun takes its own -m before the script's
    if index + 1 >= len(argv):
        raise CommandError("`-m` is not followed by a module")
    module = argv[index + 1]
    if module not in ENTRY_CONFIGS:
        raise CommandError(f"unknown verl entry point '{module}'; known: {', '.join(ENTRY_CONFIGS)}")
    return module, [arg for arg in argv[index + 2 :] if "=" in arg or arg.startswith("~")]  # `~key` deletes


def _override_key(override: str) -> str:
    return override.split("=", 1)[0].lstrip("+~")


def _blame(message: str, overrides: list[str], default: str) -> str:
    """The override whose key (or last part of it) appears in an error message."""
    best = None
    for override in overrides:
        key = _override_key(override)
        for candidate in (key, key.rsplit(".", 1)[-1]):
            if re.search(rf"(?<![\w.]){re.escape(candidate)}(?![\w])", message):
                if best is None or len(key) > len(_override_key(best)):
                    best = override
                break
    if best:
        return _override_key(best)
    full_key = re.search(r"full_key: (\S+)", message)  # OmegaConf names the node it failed on
    if full_key:
        under = [key for key in map(_override_key, overrides) if key.startswith(full_key.group(1) + ".")]
        return under[0] if len(under) == 1 else full_key.group(1)
    return next((key for phrase, key in _DERIVED.items() if phrase in message), default)


def _config_dir() -> Path:
    spec = importlib.util.find_spec("verl")
    if spec is None or spec.origin is None:
        raise CommandError("verl is not installed: install the platform with its `verl` extra")
    return Path(spec.origin).parent / "trainer" / "config"


def compose(config_name: str, overrides: list[str]):
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    with initialize_config_dir(config_dir=str(_config_dir()), version_base=None):
        return hydra_compose(config_name=config_name, overrides=overrides)


def validate(argv: list[str]) -> list[Problem]:
    module, overrides = split_command(argv)
    refused = {refusal.key: refusal for refusal in parsed_refusals(overrides, _config_dir())}
    refused.update((refusal.key, refusal) for refusal in refusals(overrides))
    if refused:
        return [Problem(key, str(refusal), refused=True) for key, refusal in refused.items()]
    from hydra.errors import ConfigCompositionException, OverrideParseException
    from omegaconf import OmegaConf

    try:
        config = compose(ENTRY_CONFIGS[module], overrides)
    except (ConfigCompositionException, OverrideParseException) as error:
        cause = error.__cause__ or error
        return [Problem(_blame(str(error), overrides, "command"), f"{error} ({type(cause).__name__}: {cause})")]
    problems = [
        Problem(key, "is required (its value is ??? in verl's config) and no override sets it")
        for key in sorted(OmegaConf.missing_keys(config))
        if not (key in _OPTIONAL_MISSING and not OmegaConf.select(config, _OPTIONAL_MISSING[key]))
    ]
    if problems:
        return problems
    try:
        OmegaConf.resolve(config)
    except Exception as error:  # noqa: BLE001 - OmegaConf raises several interpolation errors
        return [Problem(_blame(str(error), overrides, "config"), f"cannot resolve the config: {error}")]
    checks = _ppo_checks if ENTRY_CONFIGS[module] == "ppo_trainer" else _sft_checks
    problems = checks(config, overrides)
    model_key = "actor_rollout_ref.model.path" if ENTRY_CONFIGS[module] == "ppo_trainer" else "model.path"
    return problems + _chat_template_check(model_key, OmegaConf.select(config, model_key))


def _run(check, overrides: list[str], default: str, problems: list[Problem]) -> None:
    try:
        check()
    except Exception as error:  # noqa: BLE001 - verl signals bad values with Assertion/Value/Type errors
        problems.append(Problem(_blame(str(error), overrides, default), f"{type(error).__name__}: {error}"))


def _logger_check(config, overrides: list[str], problems: list[Problem]) -> None:
    from verl.utils.tracking import Tracking

    loggers = config.trainer.logger
    for backend in [loggers] if isinstance(loggers, str) else loggers:
        if backend not in Tracking.supported_backend:
            problems.append(
                Problem(
                    "trainer.logger",
                    f"unknown logger backend '{backend}'; verl supports {', '.join(Tracking.supported_backend)}",
                )
            )


def _ppo_checks(config, overrides: list[str]) -> list[Problem]:
    from verl.trainer.ppo import core_algos
    from verl.trainer.ppo.utils import need_critic, need_reference_policy
    from verl.utils.config import omega_conf_to_dataclass, validate_config

    problems: list[Problem] = []
    estimator = config.algorithm.adv_estimator
    if estimator not in core_algos.ADV_ESTIMATOR_REGISTRY:
        known = ", ".join(sorted(core_algos.ADV_ESTIMATOR_REGISTRY))
        problems.append(
            Problem("algorithm.adv_estimator", f"unknown advantage estimator '{estimator}'; known: {known}")
        )
    loss_mode = config.actor_rollout_ref.actor.policy_loss.loss_mode
    if loss_mode not in core_algos.POLICY_LOSS_REGISTRY:
        known = ", ".join(sorted(core_algos.POLICY_LOSS_REGISTRY))
        problems.append(
            Problem(
                "actor_rollout_ref.actor.policy_loss.loss_mode", f"unknown policy loss '{loss_mode}'; known: {known}"
            )
        )
    rollout = config.actor_rollout_ref.rollout.name
    if rollout not in ROLLOUT_ENGINES:
        problems.append(
            Problem(
                "actor_rollout_ref.rollout.name",
                f"unknown rollout engine '{rollout}'; verl 0.9.1 has {', '.join(ROLLOUT_ENGINES)}",
            )
        )
    _logger_check(config, overrides, problems)
    default = "actor_rollout_ref.actor"
    _run(lambda: omega_conf_to_dataclass(config.actor_rollout_ref.actor), overrides, default, problems)
    _run(lambda: omega_conf_to_dataclass(config.algorithm), overrides, "algorithm", problems)
    if not problems:
        _run(
            lambda: validate_config(config, need_reference_policy(config), need_critic(config)),
            overrides,
            "config",
            problems,
        )
    return problems


def _sft_checks(config, overrides: list[str]) -> list[Problem]:
    from verl.utils.config import omega_conf_to_dataclass

    problems: list[Problem] = []
    _logger_check(config, overrides, problems)
    for group in ("engine", "optim", "checkpoint"):
        _run(lambda group=group: omega_conf_to_dataclass(config[group]), overrides, group, problems)
    strategy = config.engine.strategy
    if strategy not in ("fsdp", "fsdp2", "megatron"):
        problems.append(Problem("engine.strategy", f"strategy '{strategy}' is not supported (fsdp, fsdp2, megatron)"))
    if config.data.train_batch_size % config.data.micro_batch_size_per_gpu:
        problems.append(
            Problem(
                "data.micro_batch_size_per_gpu", f"must divide data.train_batch_size ({config.data.train_batch_size})"
            )
        )
    return problems


def _chat_template_check(key: str, model_path: str | None) -> list[Problem]:
    """verl applies the tokenizer's chat template to every prompt; a tokenizer without one fails mid-run."""
    if not model_path or not Path(model_path).expanduser().is_dir():
        return []
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(Path(model_path).expanduser())
    if not tokenizer.chat_template:
        return [Problem(key, f"the tokenizer in {model_path} has no chat template, which verl needs")]
    return []


def _problems(command: list[str]) -> list[Problem]:
    try:
        with contextlib.redirect_stdout(sys.stderr):  # verl prints its own progress; stdout is the answer
            return validate(command)
    except CommandError as error:
        return [Problem("command", str(error))]


def serve() -> int:
    """Answer each line of stdin (a command as a JSON list of arguments) with one line: its problems as JSON."""
    # The answers keep the process's stdout to themselves: whatever else writes to file descriptor 1 (verl, a
    # library's C code) goes to stderr instead.
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    for line in sys.stdin:
        try:
            command = json.loads(line)
            if not isinstance(command, list) or not all(isinstance(arg, str) for arg in command):
                raise ValueError("expected a JSON list of strings")
            problems = _problems(command)
        except ValueError as error:
            problems = [Problem("command", f"not a command: {error}")]
        answers.write(json.dumps([asdict(p) for p in problems]) + "\n")
        answers.flush()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m training_platform.engines.verl.validate")
    parser.add_argument("--json", action="store_true", help="print the problems as JSON")
    parser.add_argument("--serve", action="store_true", help="answer one JSON command per line of stdin")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- followed by a whole verl command line")
    args = parser.parse_args()
    if args.serve:
        return serve()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    problems = _problems(command)
    if args.json:
        print(json.dumps([asdict(p) for p in problems]))
    else:
        for problem in problems:
            print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
