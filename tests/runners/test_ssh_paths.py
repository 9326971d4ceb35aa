"""Where a host's files go (runners/ssh/paths.py) and what a synced content is (runners/ssh/content.py)."""

from pathlib import Path, PurePosixPath

import pytest

from training_platform.runners.ssh.content import content_hash, file_hash
from training_platform.runners.ssh.paths import RemotePaths, checked_executable, checked_name, checked_work_dir


@pytest.mark.parametrize("name", ["", ".", "..", "a/b", "../x", "a\nb", "a\x00b", "x" * 256])
def test_a_name_that_is_not_one_plain_component_is_refused(name):
    with pytest.raises(ValueError):
        checked_name(name)


@pytest.mark.parametrize("name", ["data.jsonl", "w $(touch x) `y`; z", "数据.jsonl", ".hidden"])
def test_any_other_name_is_kept_word_for_word(name):
    assert checked_name(name) == name


@pytest.mark.parametrize("path", ["relative/dir", "/srv/../etc", "/", "/srv/a\nb", "/srv/./x", "//srv"])
def test_a_work_directory_must_be_absolute_and_plain(path):
    with pytest.raises(ValueError):
        checked_work_dir(path)


def test_remote_paths_stay_under_the_work_directory():
    paths = RemotePaths("/srv/tplat")
    assert paths.job_dir("abc123") == PurePosixPath("/srv/tplat/jobs/abc123")
    synced = paths.data_path("ab" * 32, "sft.jsonl")
    assert synced == PurePosixPath(f"/srv/tplat/data/{'ab' * 32}/sft.jsonl") and paths.inside(synced)
    for job_id in ("..", "../../etc", "a/b"):
        with pytest.raises(ValueError):
            paths.job_dir(job_id)
    with pytest.raises(ValueError):
        paths.data_path("../../etc", "x")
    with pytest.raises(ValueError):
        checked_executable("python3")


def test_a_folder_hash_is_its_files_names_and_contents(tmp_path: Path):
    first, second = tmp_path / "a", tmp_path / "b"
    for root in (first, second):
        (root / "sub").mkdir(parents=True)
        (root / "sub" / "w.bin").write_bytes(b"weights")
        (root / "config.json").write_text("{}")
    assert content_hash(first) == content_hash(second)
    (second / "sub" / "w.bin").write_bytes(b"weightz")
    assert content_hash(first) != content_hash(second)
    (second / "sub" / "w.bin").write_bytes(b"weights")
    (second / "sub" / "w.bin").rename(second / "sub" / "v.bin")
    assert content_hash(first) != content_hash(second)
    assert content_hash(first / "config.json") == file_hash(first / "config.json")
