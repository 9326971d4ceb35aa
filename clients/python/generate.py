"""Generate the Python client from the API's OpenAPI document, or check that the committed one is up to date.

    python clients/python/generate.py --generator .venv-client-gen/bin/openapi-python-client \\
        frontend/openapi.json clients/python/training_platform_client [--check]

`make client` writes the package; `make client-check` (run by `make test`) regenerates it in a temporary folder and
fails when it differs from the committed one, so a route changed without regenerating the client fails the tests.
The output is formatted by the platform's own ruff (beside this Python) with settings that do not depend on the
folder the output lands in.
"""

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CONFIG = Path(__file__).with_name("generator.yaml")
RUFF = Path(sys.executable).with_name("ruff")
RUFF_SETTINGS = ["--isolated", "--line-length", "120", "--quiet"]


def generate(generator: Path, document: Path, package: Path) -> None:
    """Write the client for `document` into `package`, a folder that must not exist yet."""
    command = [str(generator), "generate", "--path", str(document), "--meta", "none", "--config", str(CONFIG)]
    subprocess.run([*command, "--output-path", str(package)], check=True)
    subprocess.run([str(RUFF), "check", *RUFF_SETTINGS, "--fix-only", "--extend-select", "I", str(package)], check=True)
    subprocess.run([str(RUFF), "format", *RUFF_SETTINGS, str(package)], check=True)


def differences(expected: Path, committed: Path) -> list[str]:
    """The files (relative to the package) that are missing, extra or different in `committed`."""
    found: list[str] = []

    def walk(comparison: filecmp.dircmp, prefix: str) -> None:
        found.extend(prefix + name for name in comparison.left_only + comparison.right_only)
        found.extend(prefix + name for name in comparison.diff_files + comparison.funny_files)
        for name, sub in comparison.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    walk(filecmp.dircmp(expected, committed, ignore=["__pycache__"]), "")
    return sorted(found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generator", type=Path, required=True, help="the openapi-python-client executable")
    parser.add_argument("document", type=Path, help="the OpenAPI document (frontend/openapi.json)")
    parser.add_argument("package", type=Path, help="the client package's folder")
    parser.add_argument("--check", action="store_true", help="compare with the package instead of writing it")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        fresh = Path(scratch) / arguments.package.name
        generate(arguments.generator, arguments.document, fresh)
        if not arguments.check:
            shutil.rmtree(arguments.package, ignore_errors=True)
            shutil.copytree(fresh, arguments.package)
            return 0
        changed = differences(fresh, arguments.package) if arguments.package.is_dir() else ["(the whole package)"]
    if changed:
        listed = "\n".join(f"  {name}" for name in changed)
        print(
            f"{arguments.package} does not match {arguments.document}; run `make client` to regenerate it.\n"
            f"Files that differ:\n{listed}",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
