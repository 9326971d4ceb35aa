import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from training_platform.rewards import RewardConfigError, answers_match


@pytest.mark.parametrize(
    ("predicted", "reference", "expected"),
    [
        ("42", "42", 1.0),
        ("  The   Answer ", "the answer", 1.0),
        ("Paris.", "paris", 1.0),
        ("$5$.", "5", 1.0),
        ("$x^2$", "x^2", 1.0),
        ("42", 42, 1.0),
        ("3", 3.0, 1.0),
        ("5.0", "5", 0.0),
        ("Paris", "London", 0.0),
        ("", "", 0.0),
        (None, "42", 0.0),
        ("42", None, 0.0),
    ],
)
def test_exact(predicted, reference, expected):
    assert answers_match(predicted, reference, "exact") == expected


@pytest.mark.parametrize(
    ("predicted", "reference", "expected"),
    [
        ("42", "42", 1.0),
        ("42.0", 42, 1.0),
        ("-2.5", -2.5, 1.0),
        ("0.5", "1/2", 1.0),
        ("1,000", "1000", 1.0),
        ("1,000", 1000, 1.0),
        ("10{,}000", "10000", 1.0),
        ("50%", "0.5", 1.0),
        ("50\\%", "50", 1.0),
        ("$12$", "12", 1.0),
        ("1e3", "1000", 1.0),
        ("\\frac{1}{2}", 0.5, 1.0),
        ("\\frac{1}{2}", "0.5", 1.0),
        ("\\dfrac{3}{4}", "0.75", 1.0),
        ("0.5", "\\frac{1}{2}", 1.0),
        ("\\sqrt{2}", "1.41421356", 1.0),
        ("2\\pi", "6.283185307", 1.0),
        ("x + 1", "1 + x", 1.0),
        ("\\infty", "\\infty", 1.0),
        # References that are whole worked solutions: MATH-style box, GSM8K-style '####'.
        ("0.5", "so the probability is $\\boxed{\\frac{1}{2}}$.", 1.0),
        ("1000", "She pays 10 * 100 = 1000 dollars.\n#### 1,000", 1.0),
        ("3", "4", 0.0),
        ("\\frac{1}{3}", "0.5", 0.0),
        ("x + 2", "x + 1", 0.0),
        ("abc", "3", 0.0),
        ("1/0", "1", 0.0),
        ("10^{10^{10}}", "5", 0.0),
        (None, "1", 0.0),
    ],
)
def test_numeric(predicted, reference, expected):
    assert answers_match(predicted, reference, "numeric") == expected


@pytest.mark.parametrize(
    ("predicted", "reference", "tolerance", "expected"),
    [
        ("1.0000001", "1", 1e-6, 1.0),
        ("1.00001", "1", 1e-6, 0.0),
        ("1.00001", "1", 1e-4, 1.0),
        ("100.9", "100", 0.01, 1.0),
        ("101.1", "100", 0.01, 0.0),
        ("1.0000001", "1", 0.0, 0.0),
        # The absolute floor keeps answers near zero comparable at all.
        ("1e-10", "0", 1e-6, 1.0),
        ("1e-8", "0", 1e-6, 0.0),
        ("\\frac{1}{3}", "0.3333333", 1e-6, 1.0),
        ("\\frac{1}{3}", "0.3333", 1e-6, 0.0),
    ],
)
def test_numeric_tolerance(predicted, reference, tolerance, expected):
    assert answers_match(predicted, reference, "numeric", tolerance=tolerance) == expected


@pytest.mark.parametrize(
    ("predicted", "reference", "threshold", "expected"),
    [
        ("The Eiffel Tower", "the eiffel tower.", 0.8, 1.0),
        ("Eifel Tower", "Eiffel Tower", 0.8, 1.0),
        ("Eifel Tower", "Eiffel Tower", 1.0, 0.0),
        ("Berlin", "Paris", 0.8, 0.0),
        ("Berlin", "Paris", 0.01, 1.0),
        ("", "Paris", 0.01, 0.0),
        (None, "Paris", 0.8, 0.0),
    ],
)
def test_fuzzy(predicted, reference, threshold, expected):
    assert answers_match(predicted, reference, "fuzzy", fuzzy_threshold=threshold) == expected


def test_unknown_method_is_a_config_error():
    with pytest.raises(RewardConfigError, match="unknown comparison method 'semantic'"):
        answers_match("1", "1", "semantic")


def test_latex_comparison_works_off_the_main_thread():
    # Trainers score in worker threads, where math_verify's SIGALRM timeout would raise.
    pairs = [("\\frac{1}{2}", "0.5"), ("x + 1", "1 + x"), ("\\frac{1}{3}", "0.5")]
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(lambda pair: answers_match(*pair, "numeric"), pairs))
    assert results == [1.0, 1.0, 0.0]


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="POSIX interval timers only")
@pytest.mark.parametrize("armed_seconds", [0, 1000])
def test_latex_comparison_leaves_the_callers_alarm_alone(armed_seconds):
    # math_verify's own timeout re-arms and then cancels SIGALRM, which would silently disarm
    # a watchdog such as pytest-timeout.
    previous = signal.setitimer(signal.ITIMER_REAL, armed_seconds)
    try:
        assert answers_match("\\frac{1}{2}", "0.5", "numeric") == 1.0
        remaining = signal.getitimer(signal.ITIMER_REAL)[0]
    finally:
        signal.setitimer(signal.ITIMER_REAL, *previous)
    if armed_seconds:
        assert armed_seconds - 60 < remaining <= armed_seconds
    else:
        assert remaining == 0


def test_import_stays_light():
    repo_root = Path(__file__).resolve().parents[2]
    code = (
        "import sys, training_platform.rewards;"
        "heavy = [m for m in ('math_verify', 'sympy', 'torch', 'transformers') if m in sys.modules];"
        "print(heavy)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=repo_root, capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"
