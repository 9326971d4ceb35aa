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

AUTO = "auto"
AUTO_PREFERENCE = ("verl", "trl")  # the platform is built on verl; TRL where verl cannot run a job here


def register_engine(name: str, path: str) -> None:
    """Add an engine (`module:Class`); a name is registered once."""
    if name in _ENGINES or name == AUTO:
        raise ValueError(f"an engine named '{name}' is already registered ({_ENGINES.get(name, 'reserved')})")
    _ENGINES[name] = path


def engine_names() -> list[str]:
    return sorted(_ENGINES)


def get_engine(name: str) -> Engine:
    if name not in _ENGINES:
        message = f"unknown engine '{name}'; available: {', '.join([*engine_names(), AUTO])}"
        raise InvalidInputError([FieldError("engine", message)])
    return _load(name)


@cache
def _load(name: str) -> Engine:
    module_name, _, class_name = _ENGINES[name].partition(":")
    engine = getattr(importlib.import_module(module_name), class_name)()
    if engine.name != name:
        raise ValueError(f"{_ENGINES[name]} is the engine '{engine.name}', registered as '{name}'")
    return engine


def engines() -> list[Engine]:
    return [get_engine(name) for name in engine_names()]


def choose_engine(name: str, algorithm: Algorithm, num_gpus: int = 1, device: str | None = None) -> Engine:
    """The engine a job asked for; for `auto`, the first in AUTO_PREFERENCE that can run the algorithm on
    `num_gpus` devices (of kind `device`), preferring one that can run it on this machine."""
    if name != AUTO:
        return get_engine(name)
    candidates = [get_engine(n) for n in AUTO_PREFERENCE if n in _ENGINES]
    capable = [e for e in candidates if e.supports(algorithm, num_gpus, device)]
    runnable = [e for e in capable if e.runnable_here(algorithm)]
    return (runnable or capable or candidates)[0]
