"""Engines by name, imported on first use: the table names where each engine lives (as verl's rollout registry
does), so the interface knows no implementation and the API pays only for the engines it is asked about."""

import importlib
from functools import cache

from training_platform.contract.params import Algorithm
from training_platform.engines.base import Engine
from training_platform.errors import FieldError, InvalidInputError

BUILTIN_ENGINES = {
    "trl": "training_platform.engines.trl.engine:TrlEngine",
    "verl": "training_platform.engines.verl.engine:VerlEngine",
}
_ENGINES: dict[str, str] = dict(BUILTIN_ENGINES)
# Engines of the platform's other kinds of run (contract/surgery.py, contract/evaluation.py): found by a job's engine
# name like the training engines, never offered for training (engines(), engine_names() and `auto` list the training
# ones).
RUN_ENGINES = {
    "surgery": "training_platform.merging.engine:SurgeryEngine",
    "evaluation": "training_platform.evaluation.engine:EvaluationEngine",
}

AUTO = "auto"
AUTO_PREFERENCE = ("verl", "trl")  # the platform is built on verl; TRL where verl cannot run a job here


def register_engine(name: str, path: str) -> None:
    """Add an engine (`module:Class`); a name is registered once."""
    if name in _ENGINES or name in RUN_ENGINES or name == AUTO:
        registered = _ENGINES.get(name) or RUN_ENGINES.get(name, "reserved")
        raise ValueError(f"an engine named '{name}' is already registered ({registered})")
    _ENGINES[name] = path


def engine_names() -> list[str]:
    return sorted(_ENGINES)


def get_engine(name: str) -> Engine:
    if name not in _ENGINES and name not in RUN_ENGINES:
        message = f"unknown engine '{name}'; available: {', '.join([*engine_names(), AUTO])}"
        raise InvalidInputError([FieldError("engine", message)])
    return _load(name)


@cache
def _load(name: str) -> Engine:
    path = _ENGINES.get(name) or RUN_ENGINES[name]
    module_name, _, class_name = path.partition(":")
    engine = getattr(importlib.import_module(module_name), class_name)()
    if engine.name != name:
        raise ValueError(f"{path} is the engine '{engine.name}', registered as '{name}'")
    return engine


def engines() -> list[Engine]:
    return [get_engine(name) for name in engine_names()]


def capable_engines(algorithm: Algorithm, num_gpus: int = 1, device: str | None = None) -> list[Engine]:
    """The engines that can run `algorithm` on `num_gpus` devices (of kind `device`): those that can run it on this
    machine first, each group in AUTO_PREFERENCE order."""
    ordered = [*AUTO_PREFERENCE, *(name for name in engine_names() if name not in AUTO_PREFERENCE)]
    capable = [engine for engine in map(get_engine, ordered) if engine.supports(algorithm, num_gpus, device)]
    return sorted(capable, key=lambda engine: not engine.runnable_here(algorithm))


def choose_engine(name: str, algorithm: Algorithm, num_gpus: int = 1) -> Engine:
    """The engine a job asked for; for `auto`, the first capable engine (see capable_engines), or, when none is,
    the first in AUTO_PREFERENCE, whose refusal then tells the user why."""
    if name != AUTO:
        return get_engine(name)
    capable = capable_engines(algorithm, num_gpus)
    return capable[0] if capable else get_engine(AUTO_PREFERENCE[0])
