"""Deciding whether an extracted answer matches the dataset's reference answer: one comparison per method,
registered under the name a reward's `comparison` uses (rewards/spec.py takes its choices from here)."""

import difflib
import math
import re
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from training_platform.common.registry import Registry, UnknownNameError
from training_platform.rewards.errors import RewardConfigError
from training_platform.rewards.extraction import last_boxed_content


@dataclass(frozen=True)
class Answers:
    """A predicted answer and the reference, as given and normalised, with the reward's settings."""

    predicted: str
    reference: Any
    predicted_text: str
    reference_text: str
    tolerance: float
    fuzzy_threshold: float


COMPARISONS: Registry[Callable[[Answers], bool]] = Registry("comparison method")

ABSOLUTE_TOLERANCE = 1e-9
# Longer inputs are not worth handing to sympy: they are hardly ever a final answer and can
# take arbitrarily long to parse.
_MAX_LATEX_CHARS = 2000
_MATH_VERIFY_TIMEOUT_S = 5

_PLAIN_NUMBER = re.compile(r"[-+]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?")


def answers_match(
    predicted: str | None,
    reference: Any,
    method: str,
    tolerance: float = 1e-6,
    fuzzy_threshold: float = 0.8,
) -> float:
    """1.0 when `predicted` matches `reference` under `method`, else 0.0.

    A reference that is a whole worked solution is reduced to its answer first: the last
    \\boxed{...} (MATH-style) or the text after the last '####' (GSM8K-style).
    """
    try:
        compare = COMPARISONS[method]
    except UnknownNameError as error:
        raise RewardConfigError(str(error)) from None
    if predicted is None or reference is None:
        return 0.0
    predicted = str(predicted)
    predicted_text = normalise(predicted)
    if not predicted_text:
        return 0.0
    answers = Answers(
        predicted, reference, predicted_text, normalise(reference_answer(reference)), tolerance, fuzzy_threshold
    )
    return 1.0 if compare(answers) else 0.0


@COMPARISONS.register("exact")
def _exact(answers: Answers) -> bool:
    return answers.predicted_text == answers.reference_text


@COMPARISONS.register("numeric")
def _numeric(answers: Answers) -> bool:
    """Equal as text, or as numbers within the tolerance (LaTeX read by math_verify)."""
    return _exact(answers) or _numbers_match(answers.predicted, answers.reference, answers.tolerance)


@COMPARISONS.register("fuzzy")
def _fuzzy(answers: Answers) -> bool:
    ratio = difflib.SequenceMatcher(None, answers.predicted_text, answers.reference_text).ratio()
    return ratio >= answers.fuzzy_threshold


def normalise(text: str) -> str:
    """Whitespace-collapsed, case-folded text without trailing periods or surrounding $."""
    text = " ".join(text.split())
    previous = None
    while text != previous:  # "$5$." and "$5.$" both need several passes
        previous = text
        text = text.rstrip(".").strip().strip("$").strip()
    return text.casefold()


def reference_answer(reference: Any) -> str:
    """The answer a reference holds: the last \\boxed{...} of a worked solution, the text after its last '####', or
    the reference itself."""
    # Integer answers often arrive as floats from pandas/arrow columns; "42.0" must still equal "42".
    if isinstance(reference, float) and reference.is_integer():
        return str(int(reference))
    text = str(reference)
    boxed = last_boxed_content(text)
    if boxed is not None:
        return boxed
    if "####" in text:
        return text.rpartition("####")[2]
    return text


def _numbers_match(predicted: str, reference: Any, tolerance: float) -> bool:
    reference_text = reference_answer(reference)
    if isinstance(reference, (int, float)) and not isinstance(reference, bool):
        reference_values = (float(reference),)
    else:
        reference_values = _plain_number_values(reference_text)
    predicted_values = _plain_number_values(predicted)
    if predicted_values is not None and reference_values is not None:
        return _any_close(predicted_values, reference_values, tolerance)

    # At least one side is not a plain number: let math_verify read it as LaTeX.
    predicted_parsed = _parse_latex(predicted)
    reference_parsed = _parse_latex(reference_text)
    if not predicted_parsed or not reference_parsed:
        return False
    if _is_number(predicted_parsed) and _is_number(reference_parsed):
        predicted_values = predicted_values or _sympy_value(predicted_parsed)
        reference_values = reference_values or _sympy_value(reference_parsed)
        # Both are constants, so the tolerance applies; a value that doesn't fit a float
        # (10^{10^{10}}) is never close to anything else, and sympy could hang proving otherwise.
        return (
            predicted_values is not None
            and reference_values is not None
            and _any_close(predicted_values, reference_values, tolerance)
        )
    # Symbolic answers (x+1, intervals, equations) need math_verify's own equivalence check.
    _, verify = _math_verify()
    return verify(reference_parsed, predicted_parsed, timeout_seconds=_math_verify_timeout())


def _plain_number_values(text: str) -> tuple[float, ...] | None:
    """Values `text` may denote as a plain number, fraction or percentage; None if it is none of these.

    A percentage yields both readings (50% -> 50 and 0.5) because references disagree on which
    one they store.
    """
    text = normalise(text).replace("{,}", ",").replace("\\!", "").replace("−", "-")
    percent = text.endswith("%")
    if percent:
        text = text.removesuffix("%").removesuffix("\\").rstrip()
    numerator, slash, denominator = text.partition("/")
    try:
        if slash:
            value = _plain_number(numerator) / _plain_number(denominator)
        else:
            value = _plain_number(text)
    except (ValueError, ZeroDivisionError):
        return None
    if not math.isfinite(value):
        return None
    return (value, value / 100) if percent else (value,)


def _plain_number(text: str) -> float:
    text = text.strip()
    if not _PLAIN_NUMBER.fullmatch(text):
        raise ValueError(text)
    return float(text.replace(",", ""))


def _any_close(left: tuple[float, ...], right: tuple[float, ...], tolerance: float) -> bool:
    return any(math.isclose(a, b, rel_tol=tolerance, abs_tol=ABSOLUTE_TOLERANCE) for a in left for b in right)


def _math_verify():
    # Imported on first use: it pulls in sympy (~0.7 s), and the web API imports this module.
    from math_verify import parse, verify

    return parse, verify


def _math_verify_timeout() -> int | None:
    """math_verify's timeout when it is safe to use, else None (no timeout).

    math_verify enforces timeouts with SIGALRM, which raises off the main thread and would
    silently cancel an alarm someone else armed (e.g. pytest-timeout, a server watchdog).
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "getitimer"):
        return None
    if signal.getitimer(signal.ITIMER_REAL)[0] > 0:
        return None
    return _MATH_VERIFY_TIMEOUT_S


def _parse_latex(text: str) -> list:
    text = text.strip()
    if not text or len(text) > _MAX_LATEX_CHARS:
        return []
    if "$" not in text and "\\(" not in text and "\\[" not in text:
        # Without delimiters math_verify reads only plain expressions: "2\pi" would become 2.
        text = f"${text}$"
    parse, _ = _math_verify()
    return parse(text, parsing_timeout=_math_verify_timeout())


def _is_number(parsed: list) -> bool:
    return bool(getattr(parsed[0], "is_number", False))


def _sympy_value(parsed: list) -> tuple[float, ...] | None:
    try:
        value = complex(parsed[0].evalf())
    except (TypeError, ValueError, OverflowError, AttributeError):
        return None
    if value.imag != 0 or not math.isfinite(value.real):
        return None
    return (value.real,)
