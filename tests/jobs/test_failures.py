"""Why a job failed (jobs/failures.py): the cause is the exception its traceback ends with, read from the end of its
log only, and the kind of failure decides whether resuming it is the thing to try first."""

import signal

import pytest

from training_platform.contract.layout import JobLayout
from training_platform.jobs.failures import (
    LOG_TAIL_BYTES,
    Cause,
    Failure,
    FailureKind,
    exit_failure,
    find_cause,
    log_tail,
)
from training_platform.runners.base import ExitInfo

TRACEBACK = """\
{'loss': 2.3, 'step': 1}
Traceback (most recent call last):
  File "/app/train.py", line 10, in <module>
    main()
  File "/app/train.py", line 7, in main
    raise ValueError("max_length (1) is shorter than the prompt")
ValueError: max_length (1) is shorter than the prompt
"""
CHAINED = """\
Traceback (most recent call last):
  File "a.py", line 1, in <module>
KeyError: 'prompt'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "a.py", line 3, in <module>
RuntimeError: the dataset has no 'prompt' column
  its columns: question, answer
"""


@pytest.fixture
def layout(tmp_path) -> JobLayout:
    result = JobLayout("job", tmp_path)
    result.logs_dir.mkdir(parents=True)
    return result


def test_the_cause_is_the_exception_the_traceback_ends_with(layout):
    layout.stderr_path.write_text("UserWarning: TypedStorage is deprecated\n" + TRACEBACK + "exiting\n")
    assert find_cause(layout) == Cause("ValueError: max_length (1) is shorter than the prompt", "stderr")


def test_of_chained_tracebacks_the_last_exception_is_the_cause(layout):
    layout.stderr_path.write_text(CHAINED)
    assert find_cause(layout).line == "RuntimeError: the dataset has no 'prompt' column"


@pytest.mark.parametrize(
    "banner",
    ["===== 2026-11-27T10:00:00+00:00 start: python -m train", "===== Ray job tplat-1 at 2026-11-27T10:00:00"],
)
def test_an_earlier_attempts_traceback_is_not_this_attempts_cause(layout, banner):
    layout.stderr_path.write_text(f"{TRACEBACK}\n{banner}\nloading\n")
    assert find_cause(layout) is None


def test_only_the_end_of_a_log_is_read(layout):
    """A traceback further back than LOG_TAIL_BYTES is not looked for: a huge log costs what a small one does."""
    filler = "x" * 99 + "\n"
    layout.stderr_path.write_text(TRACEBACK + filler * (LOG_TAIL_BYTES // len(filler) + 10))
    assert find_cause(layout) is None
    tail = log_tail(layout.stderr_path)
    assert sum(len(line) + 1 for line in tail) <= LOG_TAIL_BYTES
    assert tail and all(line == filler.strip() for line in tail)  # the line cut in the middle is dropped

    layout.stderr_path.write_text(filler * (LOG_TAIL_BYTES // len(filler) + 10) + TRACEBACK)
    assert find_cause(layout).line.startswith("ValueError: max_length (1)")


def test_a_long_exception_line_is_cut(layout):
    layout.stderr_path.write_text("Traceback (most recent call last):\n  File 'a'\nValueError: " + "v" * 5000 + "\n")
    assert len(find_cause(layout).line) == 500


CAUSE = Cause("ValueError: bad", "stderr")
OOM = Cause("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", "stderr")


@pytest.mark.parametrize(
    ("exit_info", "cause", "kind", "advised"),
    [
        (ExitInfo(code=1), CAUSE, FailureKind.EXCEPTION, False),
        (ExitInfo(code=1), None, FailureKind.EXIT, False),
        (ExitInfo(code=0), None, FailureKind.EXIT, False),  # exited without reporting completion
        (ExitInfo(code=1), OOM, FailureKind.OUT_OF_MEMORY, True),
        (ExitInfo(code=-9, signal=signal.SIGKILL), None, FailureKind.KILLED, True),
        (ExitInfo(code=-9, signal=signal.SIGKILL), CAUSE, FailureKind.KILLED, True),
        (ExitInfo(code=137), None, FailureKind.KILLED, True),  # a launcher's report of a child's SIGKILL
        (ExitInfo(code=1, description="Ray job failed"), CAUSE, FailureKind.EXCEPTION, False),
    ],
)
def test_resume_is_advised_only_when_something_outside_the_run_ended_it(exit_info, cause, kind, advised):
    failure = exit_failure(exit_info, cause)
    assert (failure.kind, failure.resume_advised) == (kind, advised)
    assert Failure.from_dict(failure.as_dict()) == failure  # as the job's row keeps it


def test_the_advice_speaks_both_languages():
    failure = exit_failure(ExitInfo(code=1), CAUSE)
    assert "fail the same way" in failure.advice.render()
    assert "同样的方式失败" in failure.advice.render("zh-CN")
    assert failure.reason.render("zh-CN") == "退出码 1"
