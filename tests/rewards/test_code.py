"""Custom reward code: only from the reward code directory, and read, never run, by the platform server."""

import os
import textwrap

import pytest

from training_platform.rewards import RewardConfigError, check_reward_code, locate_reward_code

OUTSIDE = "must name a .py file directly in the reward code directory"
GOOD = """
from pathlib import Path

# Running this file leaves a mark: the checks below must never run it.
Path(__file__).with_suffix(".ran").write_text("ran")

def score(completion, reference, row):
    return 1.0
"""


def write(path, source=GOOD):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source))
    return path


@pytest.fixture
def code_dir(tmp_path):
    directory = tmp_path / "reward_code"
    directory.mkdir()
    return directory


@pytest.fixture
def outside(tmp_path):
    """A directory next to the reward code directory, with reward code of its own."""
    directory = tmp_path / "elsewhere"
    write(directory / "evil.py")
    write(directory / "pkg" / "__init__.py")
    write(directory / "pkg" / "mod.py")
    return directory


def ran(directory) -> list[str]:
    return sorted(str(path.relative_to(directory)) for path in directory.rglob("*.ran"))


@pytest.mark.parametrize(
    ("function", "found"),
    [
        ("rewards.py:score", "rewards.py"),
        ("{dir}/rewards.py:score", "rewards.py"),
        ("pkg.mod:score", "pkg/mod.py"),
        ("pkg:score", "pkg/__init__.py"),
        ("single:score", "single.py"),
        ("alias.py:score", "rewards.py"),  # a symlink in the directory to a file of the directory
    ],
)
def test_code_in_the_directory_is_found_and_read_without_running_it(code_dir, function, found):
    write(code_dir / "rewards.py")
    write(code_dir / "pkg" / "__init__.py")
    write(code_dir / "pkg" / "mod.py")
    write(code_dir / "single.py")
    (code_dir / "alias.py").symlink_to(code_dir / "rewards.py")
    code = check_reward_code(function.format(dir=code_dir), code_dir)
    assert code.path == (code_dir / found).resolve() and code.attribute == "score"
    assert ran(code_dir) == []


def test_no_directory_configured_allows_no_custom_code(code_dir):
    write(code_dir / "rewards.py")
    for function in ("rewards.py:score", f"{code_dir}/rewards.py:score", "pkg.mod:score"):
        with pytest.raises(RewardConfigError, match="custom reward code is disabled on this server"):
            check_reward_code(function, None)


@pytest.mark.parametrize(
    "function",
    [
        "{outside}/evil.py:score",  # another directory
        "{outside}/absent.py:score",  # same answer whether the file exists or not
        "../elsewhere/evil.py:score",
        "{dir}/../elsewhere/evil.py:score",
        "sub/inner.py:score",  # below the directory, not directly in it
        "{dir}/sub/inner.py:score",
        "link.py:score",  # a symlink out of the directory
        "linkpkg.mod:score",  # a package directory symlinked from outside
        "initpkg.mod:score",  # a package whose __init__.py is a symlink to outside code
        "/etc/passwd.py:score",
    ],
)
def test_code_outside_the_directory_is_refused_and_never_run(code_dir, outside, function):
    write(code_dir / "sub" / "inner.py")
    (code_dir / "link.py").symlink_to(outside / "evil.py")
    (code_dir / "linkpkg").symlink_to(outside / "pkg")
    (code_dir / "initpkg").mkdir()
    (code_dir / "initpkg" / "__init__.py").symlink_to(outside / "evil.py")
    write(code_dir / "initpkg" / "mod.py")
    with pytest.raises(RewardConfigError) as caught:
        check_reward_code(function.format(dir=code_dir, outside=outside), code_dir)
    assert str(caught.value).startswith(OUTSIDE)
    assert str(outside) not in str(caught.value)
    assert ran(outside) == [] and ran(code_dir) == []


@pytest.mark.parametrize(
    ("function", "message"),
    [
        ("json:loads", "would be the standard library's 'json'"),
        ("os.path:join", "would be the standard library's 'os'"),
        ("pkg.class:score", "is not a module name"),
        ("pkg..mod:score", "is not a module name"),
        ("absent.py:score", "no file 'absent.py' in the reward code directory"),
        ("absent.mod:score", "no module 'absent.mod' in the reward code directory"),
        ("rewards.py:", "must look like 'file.py:function'"),
        ("rewards.py", "must look like 'file.py:function'"),
    ],
)
def test_names_that_cannot_be_code_of_the_directory(code_dir, function, message):
    write(code_dir / "json.py")
    write(code_dir / "rewards.py")
    with pytest.raises(RewardConfigError, match=message):
        locate_reward_code(function, code_dir)


def test_a_directory_that_does_not_exist_allows_nothing(tmp_path):
    with pytest.raises(RewardConfigError, match="is not a directory"):
        locate_reward_code("rewards.py:score", tmp_path / "missing")


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def score(:\n", "file 'rewards.py' is not valid Python"),
        ("score = lambda completion, reference, row: 1.0\n", "defines no top-level function 'score'"),
        ("class Score:\n    def score(self, completion, reference, row): ...\n", "defines no top-level function"),
        ("async def score(completion, reference, row): ...\n", "is async"),
        ("def score(text): ...\n", "must accept keyword arguments completion, reference and row"),
        ("def score(completion, reference, row, extra): ...\n", "requires arguments the trainers do not pass: extra"),
        (
            "def score(completion, reference, row, *, scale): ...\n",
            "requires arguments the trainers do not pass: scale",
        ),
        ("def score(completion, /, reference, row, **kw): ...\n", "positional-only arguments without defaults"),
        ("import os\nos.system('touch x')\n", "defines no top-level function 'score'"),
    ],
)
def test_the_function_is_checked_from_the_source(code_dir, source, message):
    write(code_dir / "rewards.py", source)
    with pytest.raises(RewardConfigError, match=message):
        check_reward_code("rewards.py:score", code_dir)
    assert not (code_dir / "x").exists()


@pytest.mark.parametrize(
    "source",
    [
        "def score(completion, reference, row): ...\n",
        "def score(*, completion, reference, row, scale=2): ...\n",
        "def score(**kwargs): ...\n",
        "def score(completion=None, /, **kwargs): ...\n",  # completion=... lands in kwargs
    ],
)
def test_signatures_the_trainers_can_call(code_dir, source):
    write(code_dir / "rewards.py", source)
    check_reward_code("rewards.py:score", code_dir)


def test_the_directory_may_be_named_through_a_symlink(tmp_path, code_dir):
    write(code_dir / "rewards.py")
    link = tmp_path / "link"
    os.symlink(code_dir, link)
    assert check_reward_code(f"{link}/rewards.py:score", link).path == (code_dir / "rewards.py").resolve()
