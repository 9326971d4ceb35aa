"""Scoring completions with a RewardSpec, one at a time or in the batches trainers call with."""

import ast
import hashlib
import importlib
import importlib.util
import math
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from training_platform.rewards.comparison import answers_match
from training_platform.rewards.extraction import extract_answer
from training_platform.rewards.spec import RewardConfigError, RewardSpec

RewardFunction = Callable[[Sequence[str], Sequence[Mapping[str, Any]]], list[float]]


def load_custom_function(spec: str) -> Callable[..., Any]:
    """Resolve "module.sub:func" or "path/to/file.py:func" (relative to the working directory)."""
    target, sep, attribute = spec.rpartition(":")
    if not sep or not target.strip() or not attribute:
        raise RewardConfigError(
            f"custom reward function {spec!r} must look like 'module.path:function' or 'path/to/file.py:function'"
        )
    if target.endswith(".py") or "/" in target:
        module = _load_file(target)
        where = f"file {target!r}"
    else:
        module = _import_module(target)
        where = f"module {target!r}"
    try:
        function = getattr(module, attribute)
    except AttributeError:
        raise RewardConfigError(f"{where} has no attribute {attribute!r}") from None
    if not callable(function):
        raise RewardConfigError(f"{attribute!r} in {where} is not callable (it is a {type(function).__name__})")
    return function


def _load_file(target: str):
    path = Path(target).expanduser().resolve()
    if not path.is_file():
        raise RewardConfigError(f"custom reward file not found: {path}")
    # One module name per file, so reloading the same file replaces it instead of piling up.
    name = "_custom_reward_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise RewardConfigError(f"cannot load {path} as a Python module")
    module = importlib.util.module_from_spec(module_spec)
    # Registered before running it: dataclasses and pickling look the module up by name.
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(name, None)
        raise RewardConfigError(f"importing custom reward file {path} failed: {type(exc).__name__}: {exc}") from exc
    return module


def _import_module(target: str):
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (target == exc.name or target.startswith(exc.name + ".")):
            raise RewardConfigError(
                f"module {target!r} is not importable: no module named {exc.name!r} (is it installed or on PYTHONPATH?)"
            ) from exc
        raise RewardConfigError(f"importing module {target!r} failed: {exc}") from exc
    except Exception as exc:
        raise RewardConfigError(f"importing module {target!r} failed: {type(exc).__name__}: {exc}") from exc


def score(spec: RewardSpec, completion: str, row: Mapping[str, Any]) -> float:
    """Unweighted reward of one completion; `spec.weight` is left to the trainer to apply."""
    function = load_custom_function(spec.function) if spec.type == "custom" else None
    return _score(spec, completion, row, function)


def build_reward_function(spec: RewardSpec) -> RewardFunction:
    """Batched scorer `(completions, rows) -> scores`, named `spec.name` for metric logging."""
    function = load_custom_function(spec.function) if spec.type == "custom" else None

    def reward(completions: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> list[float]:
        if len(completions) != len(rows):
            raise ValueError(f"{len(completions)} completions but {len(rows)} rows")
        return [_score(spec, completion, row, function) for completion, row in zip(completions, rows, strict=True)]

    reward.__name__ = reward.__qualname__ = spec.name
    return reward


def validate_reward_spec(spec: RewardSpec, columns: Iterable[str] | None = None, location: str = "") -> None:
    """Fail before training starts on what would otherwise fail at the first reward call.

    A custom function is checked without running it (the file is parsed, a module is only located):
    the platform server must not execute user code; the training process loads it.
    """
    prefix = f"{location}." if location else ""
    if columns is not None and spec.type in ("math_verify", "custom"):
        columns = list(columns)
        if spec.answer_field not in columns:
            raise RewardConfigError(
                f"{prefix}answer_field: column {spec.answer_field!r} not found in dataset"
                f" (columns: {', '.join(columns)})"
            )
    if spec.type == "custom":
        try:
            _check_custom_function(spec.function)
        except RewardConfigError as exc:
            raise RewardConfigError(f"{prefix}function: {exc}") from exc


_REWARD_ARGUMENTS = ("completion", "reference", "row")


def _check_custom_function(spec: str) -> None:
    target, _, attribute = spec.rpartition(":")
    if not (target.endswith(".py") or "/" in target):
        try:
            found = importlib.util.find_spec(target)
        except (ImportError, ValueError) as exc:
            found, reason = None, str(exc)
        else:
            reason = "not found"
        if found is None:
            raise RewardConfigError(
                f"module {target!r} is not importable ({reason}; is it installed or on PYTHONPATH?)"
            )
        return
    path = Path(target).expanduser().resolve()
    if not path.is_file():
        raise RewardConfigError(f"custom reward file not found: {path}")
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (SyntaxError, UnicodeDecodeError) as exc:
        raise RewardConfigError(f"file {target!r} is not valid Python: {exc}") from None
    definitions = {node.name: node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    if attribute not in definitions:
        raise RewardConfigError(f"file {target!r} defines no top-level function {attribute!r}")
    arguments = definitions[attribute].args
    names = {a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs}
    if arguments.kwarg is None and not set(_REWARD_ARGUMENTS) <= names:
        raise RewardConfigError(f"must accept keyword arguments {', '.join(_REWARD_ARGUMENTS[:-1])} and row")


def _score(spec: RewardSpec, completion: str, row: Mapping[str, Any], function: Callable[..., Any] | None) -> float:
    if spec.type == "math_verify":
        if spec.answer_field not in row:
            raise RewardConfigError(
                f"answer_field: column {spec.answer_field!r} not found in row (columns: {', '.join(map(str, row))})"
            )
        predicted = extract_answer(completion, spec.extraction, spec.json_key)
        return answers_match(predicted, row[spec.answer_field], spec.comparison, spec.tolerance, spec.fuzzy_threshold)
    if spec.type == "format_check":
        if spec.pattern is not None:
            matched = re.fullmatch(spec.pattern, completion.strip(), re.DOTALL) is not None
        else:
            matched = extract_answer(completion, spec.extraction, spec.json_key) is not None
        return 1.0 if matched else 0.0
    try:
        value = function(completion=completion, reference=row.get(spec.answer_field), row=row)
    except Exception as exc:
        raise RewardConfigError(f"custom reward function {spec.function!r} raised {type(exc).__name__}: {exc}") from exc
    return _as_reward(value, spec.function)


def _as_reward(value: Any, function_name: str | None) -> float:
    # Strings would convert ("1.0") but are almost always a bug in the reward function.
    if isinstance(value, (str, bytes)):
        reward = None
    else:
        try:
            reward = float(value)
        except (TypeError, ValueError, OverflowError):
            reward = None
    if reward is None or not math.isfinite(reward):
        raise RewardConfigError(f"custom reward function {function_name!r} must return a finite number, got {value!r}")
    return reward
