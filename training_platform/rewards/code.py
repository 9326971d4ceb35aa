"""Where a custom reward function's code may come from, and checking it without running it.

A custom reward names `file.py:function` or `package.module:function`. Its code comes from one directory the
server's administrator configures (settings.reward_code_dir, PLATFORM_REWARD_CODE_DIR), and nowhere else:
- a file is a `.py` file directly in that directory (by its name, or by a path into the directory), after every
  symlink is resolved;
- a module is a dotted name resolved to a file under that directory (`pkg/mod.py` or `pkg/mod/__init__.py`), as
  is each package `__init__.py` importing it runs; it may not share a name with the standard library;
- no directory configured: no custom code at all.
A target outside the directory gets the same answer whether or not it exists, so the answer tells nothing
about the rest of the disk.

The platform server only reads the code (`check_reward_code`: the file parses, defines the function at top
level with a signature the trainers can call); the training process is the one that imports it
(functions.load_custom_function), with the same confinement.
"""

import ast
import keyword
import sys
from dataclasses import dataclass
from pathlib import Path

from training_platform.rewards.errors import RewardConfigError

# How the trainers call a custom reward function (functions._score).
REWARD_ARGUMENTS = ("completion", "reference", "row")
_FORMS = "'file.py:function' or 'package.module:function'"
_OUTSIDE = "must name a .py file directly in the reward code directory (PLATFORM_REWARD_CODE_DIR), or a module under it"


@dataclass(frozen=True)
class RewardCode:
    """Where a custom reward function is: the file to load, and the module name when it was given as one."""

    root: Path  # the reward code directory, resolved
    path: Path  # the file, resolved, under root
    attribute: str
    module: str | None = None


def locate_reward_code(function: str, code_dir: Path | None) -> RewardCode:
    """The code `function` ('target:attribute') names, confined to `code_dir`; RewardConfigError if it is not."""
    target, sep, attribute = function.rpartition(":")
    if not sep or not target.strip() or not attribute.isidentifier():
        raise RewardConfigError(f"custom reward function {function!r} must look like {_FORMS}")
    if code_dir is None:
        raise RewardConfigError(
            "custom reward code is disabled on this server: its administrator allows it by naming a directory of "
            "reward code in PLATFORM_REWARD_CODE_DIR"
        )
    root = Path(code_dir).expanduser().resolve()
    if not root.is_dir():
        raise RewardConfigError("the reward code directory (PLATFORM_REWARD_CODE_DIR) is not a directory")
    if target.endswith(".py") or "/" in target or "\\" in target:
        return RewardCode(root, _file(target, root), attribute)
    return RewardCode(root, _module(target, root), attribute, module=target)


def _file(target: str, root: Path) -> Path:
    given = Path(target).expanduser()
    if ".." in given.parts or not given.name.endswith(".py"):
        raise RewardConfigError(_OUTSIDE)
    if given.is_absolute():
        if given.parent.resolve() != root:  # a path into the directory, however the administrator wrote it
            raise RewardConfigError(_OUTSIDE)
    elif len(given.parts) != 1:
        raise RewardConfigError(_OUTSIDE)
    path = (root / given.name).resolve()
    if path.parent != root or path.suffix != ".py":
        raise RewardConfigError(_OUTSIDE)  # a symlink out of the directory, or to something else
    if not path.is_file():
        raise RewardConfigError(f"no file {given.name!r} in the reward code directory")
    return path


def _module(target: str, root: Path) -> Path:
    parts = target.split(".")
    if not all(part.isidentifier() and not keyword.iskeyword(part) for part in parts):
        raise RewardConfigError(f"{target!r} is not a module name; a custom reward names {_FORMS}")
    if parts[0] in sys.stdlib_module_names or parts[0] in sys.builtin_module_names:
        raise RewardConfigError(f"module {target!r} would be the standard library's {parts[0]!r}: rename the package")
    # Importing a.b.c runs a/__init__.py and a/b/__init__.py first: each has to be under the directory too.
    for depth in range(1, len(parts)):
        package = root.joinpath(*parts[:depth])
        init = (package / "__init__.py").resolve()
        if package.exists() and not package.resolve().is_relative_to(root):
            raise RewardConfigError(_OUTSIDE)
        if init.exists() and not init.is_relative_to(root):
            raise RewardConfigError(_OUTSIDE)
    # Python's order: a package directory before a module file of the same name.
    for candidate in (root.joinpath(*parts) / "__init__.py", root.joinpath(*parts).with_suffix(".py")):
        path = candidate.resolve()
        if candidate.exists() or path.exists():
            if not path.is_relative_to(root) or not path.is_file():
                raise RewardConfigError(_OUTSIDE)
            return path
    raise RewardConfigError(f"no module {target!r} in the reward code directory")


def check_reward_code(function: str, code_dir: Path | None) -> RewardCode:
    """Locate the code and read it without running it: it parses, and defines `attribute` at top level as a
    function the trainers can call with completion, reference and row."""
    code = locate_reward_code(function, code_dir)
    where = f"module {code.module!r}" if code.module else f"file {code.path.name!r}"
    try:
        tree = ast.parse(code.path.read_bytes(), filename=code.path.name)
    except (SyntaxError, ValueError) as error:
        raise RewardConfigError(f"{where} is not valid Python: {error}") from None
    definitions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}
    definition = definitions.get(code.attribute)
    if definition is None:
        raise RewardConfigError(f"{where} defines no top-level function {code.attribute!r}")
    if isinstance(definition, ast.AsyncFunctionDef):
        raise RewardConfigError(f"{code.attribute!r} in {where} is async; the trainers call a plain function")
    if problem := _signature_problem(definition.args):
        raise RewardConfigError(f"{code.attribute!r} in {where} {problem}")
    return code


def _signature_problem(arguments: ast.arguments) -> str | None:
    """Why a call `f(completion=..., reference=..., row=...)` would fail, if it would."""
    by_keyword = {a.arg for a in arguments.args + arguments.kwonlyargs}
    if arguments.kwarg is None and not set(REWARD_ARGUMENTS) <= by_keyword:
        return "must accept keyword arguments completion, reference and row"
    positional = arguments.posonlyargs + arguments.args
    required = positional[: len(positional) - len(arguments.defaults)]
    if any(argument in arguments.posonlyargs for argument in required):
        return "has positional-only arguments without defaults; the trainers pass only keyword arguments"
    names = [a.arg for a in required]
    names += [a.arg for a, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if default is None]
    if extra := [name for name in names if name not in REWARD_ARGUMENTS]:
        return f"requires arguments the trainers do not pass: {', '.join(extra)}"
    return None
