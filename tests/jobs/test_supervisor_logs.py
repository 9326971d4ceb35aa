"""What the supervisor quotes from a job's log when it fails one."""

from training_platform.contract.layout import JobLayout
from training_platform.jobs.failures import find_cause
from training_platform.jobs.supervisor import log_excerpt

WEIGHT_SYNC_FAILURE = """\
(WorkerDict pid=4945) step:1 - actor/entropy:5.69
(vLLMHttpServer pid=5193) AttributeError: 'Parameter' object has no attribute 'weight_loader'
(vLLMHttpServer pid=5193) BufferError: cannot close exported pointers exist
(vLLMHttpServer pid=5193) RuntimeError: Worker failed with error 'cannot close exported pointers exist'
(raylet) WARNING: 10 PYTHON worker processes have been started on node
"""


def layout(tmp_path) -> JobLayout:
    result = JobLayout("job", tmp_path)
    result.logs_dir.mkdir(parents=True)
    return result


def test_the_last_error_line_is_the_one_quoted(tmp_path):
    job = layout(tmp_path)
    job.stderr_path.write_text(WEIGHT_SYNC_FAILURE)
    cause = find_cause(job)
    assert cause.line == "RuntimeError: Worker failed with error 'cannot close exported pointers exist'"
    assert cause.stream == "stderr"
    assert log_excerpt(job)[-1].startswith("(raylet) WARNING")


def test_a_ray_jobs_single_log_is_read_when_stderr_is_empty(tmp_path):
    job = layout(tmp_path)
    job.stderr_path.write_text("")
    job.stdout_path.write_text("loading\nray.exceptions.RayTaskError(OSError): no such file\n")
    assert find_cause(job).line == "ray.exceptions.RayTaskError(OSError): no such file"
    assert find_cause(job).stream == "stdout"
    assert log_excerpt(job) == ["loading", "ray.exceptions.RayTaskError(OSError): no such file"]


def test_a_log_without_errors_quotes_none(tmp_path):
    job = layout(tmp_path)
    job.stdout_path.write_text("step 1\nstep 2\n")
    assert find_cause(job) is None


def test_warnings_that_name_an_error_are_not_errors_and_colours_are_dropped(tmp_path):
    job = layout(tmp_path)
    job.stderr_path.write_text(
        "\x1b[36m(pid=21818)\x1b[0m verl/workers/engine/__init__.py:69: UserWarning: megatron engine is not "
        "available: ModuleNotFoundError(\"No module named 'megatron'\")\n"
        "\x1b[36m(TaskRunnerV1 pid=16819)\x1b[0m INFO:2026-11-22 06:45:11,601:pending: 0, running: 4\n"
    )
    assert find_cause(job) is None
    assert log_excerpt(job)[-1] == "(TaskRunnerV1 pid=16819) INFO:2026-11-22 06:45:11,601:pending: 0, running: 4"
