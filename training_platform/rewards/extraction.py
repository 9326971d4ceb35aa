"""Pulling the final answer out of a model completion: one extractor per method, registered under the name a
reward's `extraction` uses (rewards/spec.py takes its choices from here)."""

import json
import re
from collections.abc import Callable

from training_platform.common.registry import Registry, UnknownNameError
from training_platform.rewards.errors import RewardConfigError

# (completion, json_key) -> the answer, or None when the completion has none in that form
EXTRACTIONS: Registry[Callable[[str, str], str | None]] = Registry("extraction method")

_BOXED_OPEN = re.compile(r"\\(?:boxed|fbox)\s*\{")

# The thousands form must be followed by a non-digit so "1,0000" is not read as 1,000 + "0".
_UNSIGNED = r"(?:(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?|(?<!\d)\.\d+)(?:[eE][-+]?\d+)?"
# A minus right after a word character is a hyphen or subtraction ("3-5", "x-1"), not a sign.
_LAST_NUMBER = re.compile(rf"(?:(?<![\w)\]}}])([-−]))?({_UNSIGNED}(?:\s*/\s*{_UNSIGNED})?)")


def extract_answer(text: str, method: str, json_key: str = "answer") -> str | None:
    """The answer a completion commits to, or None when it has none in the expected form."""
    try:
        extractor = EXTRACTIONS[method]
    except UnknownNameError as error:
        raise RewardConfigError(str(error)) from None
    return extractor(text, json_key)


@EXTRACTIONS.register("boxed")
def _boxed(text: str, _json_key: str) -> str | None:
    return last_boxed_content(text)


def last_boxed_content(text: str) -> str | None:
    """Content of the last complete \\boxed{...}; an outer box wins over boxes nested in it."""
    found = None
    position = 0
    while (match := _BOXED_OPEN.search(text, position)) is not None:
        end = _matching_brace(text, match.end())
        if end is None:
            # Unbalanced (typically a completion cut off mid-answer): look for later boxes
            # inside it rather than giving up on the whole text.
            position = match.end()
            continue
        found = text[match.end() : end]
        position = end + 1
    if found is None or not found.strip():
        return None
    return found.strip()


def _matching_brace(text: str, start: int) -> int | None:
    """Index of the brace closing the one just before `start`; LaTeX-escaped braces don't count."""
    depth = 1
    index = start
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return None


@EXTRACTIONS.register("last_number")
def _last_number(text: str, _json_key: str = "") -> str | None:
    matches = list(_LAST_NUMBER.finditer(text))
    if not matches:
        return None
    sign, number = matches[-1].groups()
    number = re.sub(r"\s+", "", number).replace(",", "")
    return f"-{number}" if sign else number


@EXTRACTIONS.register("json")
def _last_json_value(text: str, key: str) -> str | None:
    """Value at `key` in the last top-level JSON object that has it.

    Scanning for objects anywhere in the text covers ```json fences as well as bare objects.
    Objects lacking the key are skipped so a trailing {"confidence": ...} doesn't hide the answer.
    """
    decoder = json.JSONDecoder()
    found = None
    position = text.find("{")
    while position != -1:
        try:
            value, end = decoder.raw_decode(text, position)
        except ValueError:
            position = text.find("{", position + 1)
            continue
        if isinstance(value, dict) and key in value:
            found = value[key]
        position = text.find("{", end)
    if found is None:
        return None
    if isinstance(found, str):
        return found.strip() or None
    return json.dumps(found, ensure_ascii=False)
