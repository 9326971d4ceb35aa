"""What counts as progress for the stall watch: status and metrics updates, and log lines that say
something new; not a line repeated on a timer."""

import os

from training_platform.jobs.activity import JobActivity

QUEUE_COUNTS = (
    "(TaskRunnerV1 pid=16819) INFO:2026-11-22 06:{minute}:11,238:pending: 0, running: 4, finished: {done}, failure: 0\n"
)


def activity(tmp_path) -> JobActivity:
    return JobActivity(
        logs=[tmp_path / "stdout.log", tmp_path / "stderr.log"],
        progress_files=[tmp_path / "status.json"],
        started_at=1000.0,
    )


def append(path, text: str, mtime: float) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(text)
    os.utime(path, (mtime, mtime))


def test_nothing_written_yet_means_the_start_time(tmp_path):
    assert activity(tmp_path).update() == 1000.0


def test_a_line_repeated_on_a_timer_is_not_progress_but_a_changed_count_is(tmp_path):
    job = activity(tmp_path)
    log = tmp_path / "stderr.log"
    append(log, QUEUE_COUNTS.format(minute=44, done=0), 1100.0)
    assert job.update() == 1100.0  # the first time it is news
    append(log, QUEUE_COUNTS.format(minute=45, done=0), 1160.0)
    append(log, QUEUE_COUNTS.format(minute=46, done=0), 1220.0)
    assert job.update() == 1100.0
    append(log, QUEUE_COUNTS.format(minute=47, done=2), 1280.0)
    assert job.update() == 1280.0


def test_status_and_metrics_updates_are_progress(tmp_path):
    job = activity(tmp_path)
    append(tmp_path / "status.json", "{}", 1500.0)
    assert job.update() == 1500.0


def test_a_line_is_read_once_it_is_complete(tmp_path):
    job = activity(tmp_path)
    log = tmp_path / "stdout.log"
    append(log, "step:1 - loss:2.5", 1100.0)
    assert job.update() == 1000.0
    append(log, "\n", 1101.0)
    assert job.update() == 1101.0


def test_a_log_replaced_by_a_shorter_one_is_read_from_its_start(tmp_path):
    job = activity(tmp_path)
    log = tmp_path / "stdout.log"
    append(log, "a long first line that fills the file\n", 1100.0)
    job.update()
    log.write_text("")
    append(log, "fresh\n", 1200.0)
    assert job.update() == 1200.0


def test_each_redraw_of_a_progress_bar_is_a_line(tmp_path):
    job = activity(tmp_path)
    log = tmp_path / "stderr.log"
    append(log, "Loading weights:  10%|#         | 1/10\r", 1100.0)
    assert job.update() == 1100.0
    append(log, "Loading weights:  20%|##        | 2/10\r", 1200.0)
    assert job.update() == 1200.0
