"""Paths a request names: read only from under the roots the admin configured (docs/security.md, "Limits").

A path is resolved (the server user's `~`, every symlink) before it is compared with the roots, so a link under a
root that points elsewhere is refused like the place it points to. A refusal says the same thing whatever the path
is (OUTSIDE_ROOTS, as a 422 on the request's field: `checked_path`), and it is decided before
anything looks at the file: whether a path exists, is a file or can be read is never told about a path outside the
roots.
"""

import os
from collections.abc import Sequence
from pathlib import Path

from training_platform.errors import FieldError, InvalidInputError

OUTSIDE_ROOTS = "not under the platform's data roots (PLATFORM_DATA_ROOTS)"
# A folder of this name is never under a root, wherever it is: the platform keeps there what a client sent it
# that must never be read back as a model, a tokenizer or a dataset (imported metrics files, under names the
# platform chose), although the home it lies in is a root.
PRIVATE_DIR = ".private"


def under_roots(value: str | Path, roots: Sequence[Path]) -> Path | None:
    """`value` resolved, if it lies under one of `roots` (resolved themselves); None otherwise."""
    text = os.fspath(value)
    # `~other` names another user's home: whether that user exists is not for a request to find out.
    if not text or "\0" in text or (text.startswith("~") and not (text == "~" or text.startswith("~/"))):
        return None
    try:
        path = Path(text).expanduser().resolve()
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a home that cannot be found
        return None
    inside = any(path.is_relative_to(root) and PRIVATE_DIR not in path.relative_to(root).parts for root in roots)
    return path if inside else None


def checked_path(value: str | Path, roots: Sequence[Path], field: str) -> Path:
    """`value` resolved under one of `roots`, or a 422 on `field` that tells nothing about the path."""
    path = under_roots(value, roots)
    if path is None:
        raise InvalidInputError([FieldError(field, OUTSIDE_ROOTS, code="path.outside_roots")])
    return path
