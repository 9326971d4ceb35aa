"""`tplat datasets` against a real server, and `audit FILE` on its own."""

import json

from tests.datasets.files import clean_sft_rows, write_jsonl, write_parquet


def test_audit_of_a_local_file_lists_every_finding_as_json(server, tmp_path):
    rows = clean_sft_rows() + [clean_sft_rows()[2], {**clean_sft_rows()[0], "prompt": ""}]
    path = write_parquet(tmp_path / "d.parquet", rows)
    result = server.cli("datasets", "audit", str(path), "--algorithm", "sft", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [(f["kind"], f["rows"]) for f in report["findings"]] == [("empty_field", [26]), ("exact_duplicate", [3, 25])]
    assert all(f["message"] for f in report["findings"])
    table = server.cli("datasets", "audit", str(path), "--algorithm", "sft")
    assert table.returncode == 0 and "exact_duplicate" in table.stdout

    truncated = tmp_path / "t.json"
    truncated.write_text(json.dumps(rows)[:200])
    unreadable = server.cli("datasets", "audit", str(truncated), "-a", "sft", "--json")
    assert unreadable.returncode == 1 and "row 2 is malformed or cut off" in unreadable.stderr
    assert server.cli("datasets", "audit", str(path)).returncode == 2  # a file needs --algorithm


def test_upload_list_audit_stats_and_dedup(server, tmp_path):
    rows = clean_sft_rows() + [clean_sft_rows()[7]]
    path = write_jsonl(tmp_path / "my data.jsonl", rows)
    uploaded = server.cli("datasets", "upload", str(path), "--algorithm", "sft", "--label", "data_source")
    assert uploaded.returncode == 0, uploaded.stderr
    assert "registered dataset my-data" in uploaded.stdout and "25 rows, 0 invalid" in uploaded.stdout
    again = server.cli("datasets", "upload", str(path), "-a", "sft", "--name", "copy")
    assert again.returncode == 1 and "already registered as dataset 'my-data'" in again.stderr

    listing = server.cli("datasets", "list")
    assert "my-data" in listing.stdout and "25" in listing.stdout
    audited = server.cli("datasets", "audit", "my-data", "--json")
    assert audited.returncode == 0, audited.stderr
    assert [(f["kind"], f["rows"]) for f in json.loads(audited.stdout)["findings"]] == [("exact_duplicate", [8, 25])]
    stats = server.cli("datasets", "stats", "my-data")
    assert stats.returncode == 0 and "data_source" in stats.stdout and "estimated tokens" in stats.stdout

    deduped = server.cli("datasets", "dedup", "my-data", "--method", "exact")
    assert deduped.returncode == 0, deduped.stderr
    assert "removed 1 rows in 1 groups: new version my-data-dedup" in deduped.stdout
    shown = json.loads(server.cli("datasets", "show", "my-data-dedup").stdout)
    assert shown["num_rows"] == 24 and [v["name"] for v in shown["versions"]] == ["my-data", "my-data-dedup"]
    versions = json.loads(server.cli("datasets", "versions", "my-data", "--json").stdout)
    assert [(v["version"], v["name"]) for v in versions] == [(1, "my-data"), (2, "my-data-dedup")]
    tasks = server.cli("datasets", "tasks", "my-data").stdout
    assert "audit" in tasks and "dedup" in tasks and "completed" in tasks
    assert server.cli("datasets", "stats", "nope").returncode == 1


def test_fields_changes_a_datasets_format_in_place(server, tmp_path):
    rows = [{"prompt": f"p{i}", "response": f"r{i}", "instruction": f"Say {i}.", "output": str(i)} for i in range(4)]
    path = write_jsonl(tmp_path / "two formats.jsonl", rows)
    assert server.cli("datasets", "upload", str(path), "-a", "sft", "--name", "two-formats").returncode == 0
    changed = server.cli("datasets", "fields", "two-formats", "--preset", "alpaca")
    assert changed.returncode == 0, changed.stderr
    assert (
        changed.stdout.startswith("format alpaca")
        and server.api.get("/datasets/two-formats").json()["preset"] == "alpaca"
    )
    refused = server.cli("datasets", "fields", "two-formats", "--preset", "sharegpt")
    assert refused.returncode == 1 and "rows 1, 2" in refused.stderr, refused.stderr
