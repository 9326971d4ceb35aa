"""Imports point down only, and the training side needs none of the server's packages: import-linter's contracts
(pyproject.toml) hold for the code, and fail on a planted violation of each kind."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_code_keeps_every_contract():
    result = lint_imports(REPO)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "planted", "contract"),
    [
        # The ground floor reaching up into a service.
        ("contract/planted.py", "import training_platform.jobs.service", "Each layer imports only the layers below it"),
        # An engine reaching into the jobs domain.
        (
            "engines/planted.py",
            "from training_platform.jobs import store",
            "Each layer imports only the layers below it",
        ),
        # The training side needing the server's web framework.
        ("contract/planted.py", "import fastapi", "The training side needs none of the server's packages"),
        # A router reading tables.
        ("api/routers/planted.py", "from training_platform.db import tables", "Routers translate HTTP"),
        # A new domain reading another domain's tables instead of asking its service.
        (
            "evaluation.py",
            "from training_platform.jobs.store import JobStore",
            "A domain's store is its own",
        ),
        # A command opening the platform beside a running server.
        ("cli/planted.py", "from training_platform.platform import Platform", "The CLI reaches the platform over HTTP"),
    ],
)
def test_a_planted_violation_breaks_its_contract(tmp_path, module, planted, contract):
    copy = tmp_path / "repo"
    shutil.copytree(REPO / "training_platform", copy / "training_platform", ignore=shutil.ignore_patterns("web"))
    shutil.copy(REPO / "pyproject.toml", copy / "pyproject.toml")
    (copy / "training_platform" / module).write_text(f"{planted}\n")
    result = lint_imports(copy)
    assert result.returncode != 0
    broken = result.stdout[result.stdout.index("Broken contracts") :]
    assert contract in broken and f"training_platform.{module[:-3].replace('/', '.')}" in broken, result.stdout
