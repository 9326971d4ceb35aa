"""Scoring completions with a RewardSpec, one at a time or in the batches trainers call with."""

import hashlib
import importlib
import importlib.util
import math
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from training_platform.errors import FieldError
from training_platform.rewards.code import RewardCode, locate_reward_code
from training_platform.rewards.comparison import answers_match
from training_platform.rewards.extraction import extract_answer
from training_platform.rewards.spec import RewardConfigError, RewardSpec, compile_pattern

RewardFunction = Callable[[Sequence[str], Sequence[Mapping[str, Any]]], list[float]]


def load_custom_function(spec: str, code_dir: Path | None) -> Callable[..., Any]:
    """Import "file.py:func" or "package.module:func" from the reward code directory `code_dir` (code.py says
    what may be named). The training process calls this; the platform server only runs check_reward_code."""
    code = locate_reward_code(spec, code_dir)
    if code.module is None:
        module, where = _load_file(code.path), f"file {code.path.name!r}"
    else:
        module, where = _import_module(code), f"module {code.module!r}"
    try:
        function = getattr(module, code.attribute)
    except AttributeError:
        raise RewardConfigError(f"{where} has no attribute {code.attribute!r}") from None
    if not callable(function):
        raise RewardConfigError(f"{code.attribute!r} in {where} is not callable (it is a {type(function).__name__})")
    return function


def _load_file(path: Path):
    # One module name per file, so reloading the same file replaces it instead of piling up.
    name = "_custom_reward_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise RewardConfigError(f"cannot load {path.name} as a Python module")
    module = importlib.util.module_from_spec(module_spec)
    # Registered before running it: dataclasses and pickling look the module up by name.
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(name, None)
        raise RewardConfigError(
            f"importing custom reward file {path.name} failed: {type(exc).__name__}: {exc}"
        ) from exc
    return module


def _import_module(code: RewardCode):
    # The directory first on the path, so its packages come before installed ones of the same name (and stay
    # importable for the imports the module does later).
    if str(code.root) not in sys.path:
        sys.path.insert(0, str(code.root))
    target = code.module
    try:
        module = importlib.import_module(target)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (target == exc.name or target.startswith(exc.name + ".")):
            raise RewardConfigError(f"module {target!r} is not importable: no module named {exc.name!r}") from exc
        raise RewardConfigError(f"importing module {target!r} failed: {exc}") from exc
    except Exception as exc:
        raise RewardConfigError(f"importing module {target!r} failed: {type(exc).__name__}: {exc}") from exc
    origin = getattr(module, "__file__", None)
    if origin is None or not Path(origin).resolve().is_relative_to(code.root):
        raise RewardConfigError(
            f"module {target!r} was already imported from outside the reward code directory: rename the package"
        )
    return module


def score(spec: RewardSpec, completion: str, row: Mapping[str, Any], code_dir: Path | None = None) -> float:
    """Unweighted reward of one completion; `spec.weight` is left to the trainer to apply."""
    function = load_custom_function(spec.function, code_dir) if spec.type == "custom" else None
    return _score(spec, completion, row, function)


def build_reward_function(spec: RewardSpec, code_dir: Path | None = None) -> RewardFunction:
    """Batched scorer `(completions, rows) -> scores`, named `spec.name` for metric logging; a custom function
    is imported from the reward code directory `code_dir` (none: custom functions are refused)."""
    function = load_custom_function(spec.function, code_dir) if spec.type == "custom" else None

    def reward(completions: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> list[float]:
        if len(completions) != len(rows):
            raise ValueError(f"{len(completions)} completions but {len(rows)} rows")
        return [_score(spec, completion, row, function) for completion, row in zip(completions, rows, strict=True)]

    reward.__name__ = reward.__qualname__ = spec.name
    return reward


def validate_reward_spec(spec: RewardSpec, columns: Iterable[str] | None = None, location: str = "") -> None:
    """Fail before training starts on what would otherwise fail at the first reward call: the answer column.

    A custom function's code is checked apart (code.check_reward_code), by the engines, which know the server's
    reward code directory: confined to it, the file read and parsed, never imported, since the platform server
    must not execute user code; the training process loads it.
    """
    prefix = f"{location}." if location else ""
    if columns is not None and spec.type in ("math_verify", "custom"):
        columns = list(columns)
        if spec.answer_field not in columns:
            raise RewardConfigError(
                f"{prefix}answer_field: column {spec.answer_field!r} not found in dataset"
                f" (columns: {', '.join(columns)})"
            )


def reward_spec_problems(specs: Sequence[RewardSpec], columns: Iterable[str] | None, location: str) -> list[FieldError]:
    """What validate_reward_spec finds in each spec, as field errors (`<location>.<index>.answer_field`)."""
    problems = []
    for index, spec in enumerate(specs):
        try:
            validate_reward_spec(spec, columns, location=f"{location}.{index}")
        except RewardConfigError as error:
            field, _, message = str(error).partition(": ")
            problems.append(FieldError(field, message))
    return problems


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
            matched = compile_pattern(spec.pattern).fullmatch(completion.strip()) is not None
        else:
            matched = extract_answer(completion, spec.extraction, spec.json_key) is not None
        return 1.0 if matched else 0.0
    try:
        value = function(completion=completion, reference=row.get(spec.answer_field), row=row)
    except Exception as exc:
        raise RewardConfigError(f"custom reward function {spec.function!r} raised {type(exc).__name__}: {exc}") from exc
    return as_reward(value, spec.function)


def as_reward(value: Any, function_name: str | None) -> float:
    """A custom function's value as a finite number (a reward, a custom metric); RewardConfigError otherwise."""
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
