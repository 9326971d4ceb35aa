"""The datasets service on SQLite and PostgreSQL: uploads are atomic, confined and deduplicated; versions,
field configuration and background tasks; jobs read registered datasets through their field mapping."""

import json
import time

import pytest
from pydantic import ValidationError

from tests.datasets.files import WRITERS, clean_sft_rows, write_jsonl, write_parquet
from training_platform.common.text import Text
from training_platform.contract.data import DataFormat
from training_platform.datafiles.rows import read_rows
from training_platform.datasets.audit import AuditOptions
from training_platform.datasets.convert import ConvertRequest
from training_platform.datasets.schemas import DatasetRegister, DatasetUpdate, DatasetUpload, DedupRequest
from training_platform.errors import ConflictError, InvalidInputError, NotFoundError, TooLargeError
from training_platform.jobs.schemas import JobCreate


def upload(platform, path, name, kind="sft", filename=None, **fields):
    request = DatasetUpload(name=name, kind=kind, filename=filename or path.name, **fields)
    platform.datasets.check_upload(request)
    with platform.datasets.receive(request.filename) as staged:
        staged.write(path.read_bytes())
        return platform.datasets.finish_upload(staged, request)


def stored_files(platform) -> list:
    root = platform.settings.datasets_dir
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and ".reports" not in p.parts)


def wait(platform, dataset, task, timeout=120):
    deadline = time.monotonic() + timeout
    while (task := platform.datasets.task(dataset, task.id)).status in ("queued", "running"):
        assert time.monotonic() < deadline, "task did not finish"
        time.sleep(0.1)
    return task


@pytest.mark.parametrize("suffix", ["jsonl", "json", "parquet"])
def test_upload_stores_validates_and_deduplicates_by_content(platform, tmp_path, suffix):
    path = WRITERS[suffix](tmp_path / f"clean.{suffix}", clean_sft_rows())
    dataset = upload(platform, path, "clean")
    assert (dataset.num_rows, dataset.num_invalid, dataset.file_format, dataset.source) == (24, 0, suffix, "upload")
    assert stored_files(platform) == [f"files/{dataset.id}/clean.{suffix}"]
    assert (platform.settings.datasets_dir / "files" / dataset.id / path.name).read_bytes() == path.read_bytes()
    assert dataset.columns == ["prompt", "response", "data_source"] and len(dataset.content_hash) == 64
    with pytest.raises(ConflictError, match="same content is already registered as dataset 'clean'"):
        upload(platform, path, "again")
    with pytest.raises(ConflictError, match="already registered"):
        upload(platform, write_jsonl(tmp_path / "other.jsonl", clean_sft_rows()[:3]), "clean")
    assert [d.name for d in platform.datasets.list_all()] == ["clean"]
    assert stored_files(platform) == [f"files/{dataset.id}/clean.{suffix}"]


def broken_files(tmp_path) -> dict:
    rows = clean_sft_rows()
    (tmp_path / "bad-utf8.jsonl").write_bytes(
        b'{"prompt": "a", "response": "b"}\n{"prompt": "\xff", "response": "c"}\n'
    )
    (tmp_path / "truncated.json").write_text(json.dumps(rows)[:300])
    write_parquet(tmp_path / "schema.parquet", [{"question": r["prompt"], "answer": r["response"]} for r in rows])
    write_jsonl(tmp_path / "missing.jsonl", [rows[0], {"prompt": "no response"}, rows[1], {"response": "no prompt"}])
    (tmp_path / "empty.jsonl").write_bytes(b"")
    return {
        "bad-utf8.jsonl": [("file", 2, "not valid UTF-8 (byte 13 of the line)")],
        "truncated.json": [("file", None, "truncated.json is not valid JSON: row 2 is malformed or cut off")],
        # One line per distinct problem, with its rows and the columns the file has instead.
        "schema.parquet": [
            (
                "file",
                None,
                "missing required field 'prompt': 24 of 24 rows (rows 1, 2, 3, 4, 5, …); "
                "the file's columns: question, answer",
            ),
            ("file", None, "missing required field 'response': 24 of 24 rows"),
        ],
        "missing.jsonl": [
            ("file", 2, "missing required field 'response'"),
            ("file", 4, "missing required field 'prompt'"),
        ],
        "empty.jsonl": [("file", None, "empty.jsonl is empty (0 bytes)")],
    }


def test_broken_uploads_are_refused_with_rows_and_leave_nothing(platform, tmp_path):
    for name, expected in broken_files(tmp_path).items():
        with pytest.raises(InvalidInputError) as caught:
            upload(platform, tmp_path / name, "broken")
        errors = [(e.field, e.row, e.message) for e in caught.value.errors]
        for field, row, message in expected:
            assert any(f == field and r == row and m.startswith(message) for f, r, m in errors), (name, errors)
        assert platform.datasets.list_all() == [] and stored_files(platform) == [], name
    # The summary points at the full report, which lists every invalid row.
    with pytest.raises(InvalidInputError) as caught:
        upload(platform, tmp_path / "schema.parquet", "broken")
    *problems, summary, no_preset = caught.value.errors
    assert len(problems) == 2
    assert Text(problems[0].code, problems[0].params).render("zh-CN") == (
        "缺少必填字段“prompt”：24 行中有 24 行（第 1, 2, 3, 4, 5, … 行）；文件中的列：question, answer"
    )
    summary, no_preset = summary.message, no_preset.message
    assert summary.startswith("24 of 24 rows are invalid; every row is in /api/v1/")
    # Rows in no shape the platform knows: each preset for the kind was tried, and says why it does not fit.
    assert no_preset.startswith("no format preset fits these sft rows (alpaca: missing required field 'instruction'")
    report = json.loads(platform.datasets.report_path(summary.rsplit("/", 1)[1]).read_text())
    assert [p["row"] for p in report["problems"]] == list(range(1, 25))


def test_names_that_escape_the_data_directory_are_refused(platform, tmp_path):
    path = write_jsonl(tmp_path / "d.jsonl", clean_sft_rows())
    with pytest.raises(InvalidInputError, match="is not a plain file name"):
        upload(platform, path, "ok", filename="../../etc/passwd.jsonl")
    with pytest.raises(InvalidInputError, match="must end in .json, .jsonl, .parquet, .csv or .arrow"):
        upload(platform, path, "ok", filename="passwd")
    with pytest.raises(ValidationError, match="should match pattern"):
        DatasetUpload(name="../../etc/passwd", kind="sft", filename="d.jsonl")
    assert platform.datasets.list_all() == [] and stored_files(platform) == []


def test_uploads_over_the_size_limit_stop_at_once(platform, tmp_path):
    platform.datasets.storage.max_upload_bytes = 1000
    with pytest.raises(TooLargeError, match="larger than the limit of 1000 bytes"):
        with platform.datasets.receive("big.jsonl") as staged:
            for _ in range(10):
                staged.write(b"x" * 200)
    assert stored_files(platform) == []


def test_a_directory_with_a_field_mapping_and_invalid_rows_allowed(platform, tmp_path):
    folder = tmp_path / "shards"
    folder.mkdir()
    rows = [{"question": r["prompt"], "answer": r["response"], "topic": r["data_source"]} for r in clean_sft_rows()]
    write_jsonl(folder / "part-0.jsonl", rows[:10])
    write_jsonl(folder / "part-1.jsonl", rows[10:] + [{"question": "", "answer": "x", "topic": "math"}])
    request = DatasetRegister(
        name="shards", path=str(folder), kind="sft", field_mapping={"prompt": "question"}, label_fields=["topic"]
    )
    with pytest.raises(InvalidInputError) as caught:
        platform.datasets.register(request)
    first = caught.value.errors[0]
    assert first.field == "path" and first.message.startswith("missing required field 'response': 25 of 25 rows")
    assert first.message.endswith("the file's columns: question, answer, topic")
    request.field_mapping["response"] = "answer"
    with pytest.raises(InvalidInputError) as caught:
        platform.datasets.register(request)
    assert (caught.value.errors[0].row, caught.value.errors[0].message) == (25, "field 'prompt' is empty")
    request.allow_invalid_rows = True
    dataset = platform.datasets.register(request)
    assert (dataset.num_rows, dataset.num_invalid, dataset.source, dataset.file_format) == (25, 1, "path", "jsonl")
    with pytest.raises(InvalidInputError) as caught:
        platform.datasets.update("shards", DatasetUpdate(field_mapping={"prompt": "nope"}))
    assert caught.value.errors[0].field == "field_mapping.prompt"
    stats = platform.datasets.stats("shards", None, 5)
    assert [(v.value, v.count) for v in stats.labels[0].values] == [("math", 9), ("history", 8), ("science", 8)]
    platform.datasets.delete("shards")
    assert sorted(p.name for p in folder.iterdir()) == ["part-0.jsonl", "part-1.jsonl"]  # not ours to delete


def test_jobs_read_a_registered_dataset_through_its_field_mapping(platform, tmp_path, demo_assets):
    rows = [{"question": r["prompt"], "answer": r["response"]} for r in clean_sft_rows()]
    path = write_parquet(tmp_path / "qa.parquet", rows)
    platform.datasets.register(
        DatasetRegister(
            name="qa", path=str(path), kind="sft", field_mapping={"prompt": "question", "response": "answer"}
        )
    )
    body = dict(
        name="mapped",
        algorithm="sft",
        model_path=str(demo_assets["model"]),
        params={"learning_rate": 1e-3, "batch_size": 8, "micro_batch_size": 8, "max_steps": 1},
    )
    with pytest.raises(InvalidInputError) as caught:
        platform.jobs.create(JobCreate(**body, dataset_paths=[str(path)]))
    assert caught.value.errors[0].message == "missing required field 'prompt'; missing required field 'response'"
    with pytest.raises(InvalidInputError, match="no dataset with id or name 'nope'"):
        platform.jobs.create(JobCreate(**body, dataset_paths=["dataset:nope"]))
    job = platform.jobs.create(JobCreate(**body, dataset_paths=["dataset:qa"]))
    assert job.dataset_paths == [str(path)]
    assert job.dataset_formats == {str(path): DataFormat(field_mapping={"prompt": "question", "response": "answer"})}
    first = read_rows(job.dataset_paths, job.dataset_formats, "sft")[0]
    assert (first["prompt"], first["response"]) == (rows[0]["question"], rows[0]["answer"])


def test_audit_dedup_and_conversion_make_linked_versions(platform, tmp_path):
    rows = clean_sft_rows() + [
        clean_sft_rows()[5],
        {**clean_sft_rows()[8], "prompt": "  " + clean_sft_rows()[8]["prompt"].upper()},
    ]
    source = upload(platform, write_jsonl(tmp_path / "raw.jsonl", rows), "raw")
    task = wait(platform, "raw", platform.datasets.start_audit("raw", AuditOptions()))
    assert task.status == "completed" and task.progress == 1.0
    assert task.result["summary"] == {"exact_duplicate": 2, "near_duplicate": 2}
    assert task.findings_total == 2 and [f.rows for f in task.findings] == [[6, 25], [9, 26]]

    task = wait(platform, "raw", platform.datasets.start_dedup("raw", DedupRequest(method="near")))
    assert task.result["removed"] == 2 and task.result["name"] == "raw-dedup"
    deduped = platform.datasets.get("raw-dedup")
    assert (deduped.num_rows, deduped.parent_id, deduped.version, deduped.file_format) == (24, source.id, 2, "parquet")
    assert deduped.derivation == "dedup near: kept 24 of 26"
    # The same deduplication again has nothing new to remove: it answers with the version that holds its result.
    again = wait(platform, "raw", platform.datasets.start_dedup("raw", DedupRequest(method="near")))
    assert again.status == "completed", again.error
    assert (again.result["existing"], again.result["dataset"], again.result["removed"]) == (True, deduped.id, 2)
    assert [d.name for d in platform.datasets.versions("raw")] == ["raw", "raw-dedup"]

    train, validation = platform.datasets.convert("raw-dedup", ConvertRequest(validation_fraction=0.25, seed=1))
    assert (train.num_rows, validation.num_rows) == (18, 6)
    assert {train.parent_id, validation.parent_id} == {deduped.id} and train.lineage_id == source.id
    assert [d.version for d in platform.datasets.versions("raw")] == [1, 2, 3, 4]
    with pytest.raises(ConflictError, match="already registered"):
        platform.datasets.convert("raw-dedup", ConvertRequest(validation_fraction=0.25, seed=1))

    platform.datasets.delete("raw-dedup")
    assert platform.datasets.get(train.id).parent_id is None
    assert f"files/{deduped.id}/raw-dedup.parquet" not in stored_files(platform)
    with pytest.raises(NotFoundError):
        platform.datasets.get("raw-dedup")
