"""The decoding worker (common/worker.py): a child over its memory, its CPU time, its wall clock or its result
budget is stopped and refused naming the setting, the caller's process unaffected; an error the function raises
comes back as itself, progress is relayed, and each call's child is gone when the call returns."""

import os
import time

import psutil
import pytest

from training_platform.common.worker import LimitExceeded, Worker, WorkerLimits
from training_platform.datafiles.errors import DatasetFileError
from training_platform.datasets.decoding import PRELOAD
from training_platform.errors import FieldError, InvalidInputError

# The fork server is one per process, its imports those of whichever test starts it: the datasets' modules too.
MODULES = [*PRELOAD, "tests.common.test_worker"]
LIMITS = WorkerLimits(memory_bytes=256 * 2**20, cpu_seconds=2, timeout_seconds=30, result_bytes=2**20)


@pytest.fixture(scope="module")
def worker() -> Worker:
    return Worker(LIMITS, MODULES)


def double(value: int) -> int:
    return 2 * value


def hold_python_bytes(size: int) -> int:
    return len(bytearray(size))


def hold_arrow_bytes(size: int) -> int:
    import pyarrow as pa

    return pa.allocate_buffer(size).size


def spin() -> None:
    while True:
        pass


def sleep_past(seconds: float) -> None:
    time.sleep(seconds)


def answer_of(size: int) -> bytes:
    return b"x" * size


def refuse() -> None:
    raise InvalidInputError([FieldError("path", "row 3 is broken", row=3)])


def refuse_file() -> None:
    raise DatasetFileError("bomb.parquet decodes to more than the limit")


def report_progress(progress) -> str:
    for step in range(3):
        progress(step / 3, f"step {step}")
    return "done"


def refusal(worker: Worker, function, *args, **kwargs) -> LimitExceeded:
    with pytest.raises(LimitExceeded) as refused:
        worker.run(function, *args, field="file", what="reading bomb.parquet", **kwargs)
    assert refused.value.errors[0].field == "file"
    assert refused.value.setting in str(refused.value) and "reading bomb.parquet" in str(refused.value)
    return refused.value


def no_child_left() -> None:
    """Only multiprocessing's own helpers stay: the fork server and its resource tracker."""
    helpers = ("multiprocessing.forkserver", "multiprocessing.resource_tracker")
    children = [" ".join(child.cmdline()) for child in psutil.Process().children()]
    assert [line for line in children if not any(helper in line for helper in helpers)] == []


def test_a_call_returns_its_result_from_a_child_and_costs_a_fork(worker):
    assert worker.run(double, 21, field="file", what="doubling") == 42
    began = time.monotonic()
    for value in range(20):
        assert worker.run(double, value, field="file", what="doubling") == 2 * value
    per_call = (time.monotonic() - began) / 20
    print(f"worker call {per_call * 1000:.1f} ms")
    assert per_call < 1.0
    no_child_left()


@pytest.mark.parametrize("hold", [hold_python_bytes, hold_arrow_bytes])
def test_memory_over_the_budget_is_refused_and_the_caller_unaffected(worker, hold):
    within = LIMITS.memory_bytes // 4
    assert worker.run(hold, within, field="file", what="holding") == within
    before = psutil.Process().memory_info().rss
    refused = refusal(worker, hold, 2 * LIMITS.memory_bytes)
    assert refused.setting == "PLATFORM_DECODE_MEMORY_BYTES"
    assert psutil.Process().memory_info().rss - before < LIMITS.memory_bytes // 4
    no_child_left()


def test_cpu_time_over_the_budget_is_refused(worker):
    began = time.monotonic()
    refused = refusal(worker, spin)
    assert refused.setting == "PLATFORM_DECODE_CPU_SECONDS"
    assert time.monotonic() - began < LIMITS.cpu_seconds + 10
    no_child_left()


def test_a_child_past_the_timeout_is_killed():
    quick = Worker(WorkerLimits(LIMITS.memory_bytes, 10, 1.0, LIMITS.result_bytes), MODULES)
    began = time.monotonic()
    refused = refusal(quick, sleep_past, 60)
    assert refused.setting == "PLATFORM_DECODE_TIMEOUT_SECONDS"
    assert time.monotonic() - began < 10
    no_child_left()


def test_a_result_over_the_budget_is_refused_unread(worker):
    half = LIMITS.result_bytes // 2
    assert len(worker.run(answer_of, half, field="file", what="answering")) == half
    refused = refusal(worker, answer_of, LIMITS.result_bytes + 1)
    assert refused.setting == "PLATFORM_DECODE_RESULT_BYTES"
    no_child_left()


def test_an_error_of_the_function_comes_back_as_itself(worker):
    with pytest.raises(InvalidInputError) as refused:
        worker.run(refuse, field="file", what="reading")
    assert refused.value.errors == [FieldError("path", "row 3 is broken", row=3)]
    with pytest.raises(DatasetFileError, match="decodes to more than the limit"):
        worker.run(refuse_file, field="file", what="reading")


def test_progress_is_relayed(worker):
    reports = []
    result = worker.run(report_progress, field="file", what="auditing", progress=lambda f, m: reports.append((f, m)))
    assert result == "done"
    assert reports == [(0.0, "step 0"), (1 / 3, "step 1"), (2 / 3, "step 2")]


def test_the_child_runs_under_its_limits(worker):
    import resource

    def limits_in_child():  # not picklable: refused as the bug it would be
        return resource.getrlimit(resource.RLIMIT_AS)

    with pytest.raises(Exception):  # noqa: B017 - pickling a local function fails in the caller
        worker.run(limits_in_child, field="file", what="x")
    assert worker.run(address_space_limit, field="file", what="x")[0] > LIMITS.memory_bytes
    assert worker.run(cpu_limit, field="file", what="x") == (LIMITS.cpu_seconds, LIMITS.cpu_seconds + 1)
    assert os.getpid() != worker.run(os.getpid, field="file", what="x")


def address_space_limit():
    import resource

    return resource.getrlimit(resource.RLIMIT_AS)


def cpu_limit():
    import resource

    return resource.getrlimit(resource.RLIMIT_CPU)
