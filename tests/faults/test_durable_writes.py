"""An atomic write is durable before it returns: the data are synced before the rename, the rename after it."""

import os

from training_platform.common import files
from training_platform.common.files import read_json, write_json_atomic


def test_write_json_atomic_syncs_the_file_then_its_directory(tmp_path, monkeypatch):
    synced = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        synced.append("directory" if os.path.isdir(f"/proc/self/fd/{fd}") else "file")
        real_fsync(fd)

    def replace(source, target):
        synced.append("rename")
        real_replace(source, target)

    monkeypatch.setattr(files.os, "fsync", fsync)
    monkeypatch.setattr(files.os, "replace", replace)
    write_json_atomic(tmp_path / "status.json", {"step": 3})
    assert synced == ["file", "rename", "directory"]
    assert read_json(tmp_path / "status.json") == {"step": 3}
    assert [path.name for path in tmp_path.iterdir()] == ["status.json"]  # no temporary file left
