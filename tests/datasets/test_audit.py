"""The audit on real files: planted problems are found at their rows, a clean set gives no finding."""

import json

import pytest

from tests.datasets.files import WRITERS, clean_sft_rows, write_jsonl
from training_platform.datafiles.formats import schema_for
from training_platform.datafiles.table import apply_field_mapping, load_table
from training_platform.datasets.audit import AuditOptions, audit_table
from training_platform.datasets.tokens import WHITESPACE, token_counter


def audit(path, kind="sft", mapping=None, **options):
    table = load_table(path)
    table.frame = apply_field_mapping(table.frame, mapping or {})
    return audit_table(table, kind, schema_for(kind), AuditOptions(**options), token_counter(options.get("tokenizer")))


def by_kind(report) -> dict[str, list[list[int]]]:
    found: dict[str, list[list[int]]] = {}
    for finding in report.findings:
        found.setdefault(finding.kind, []).append(finding.rows)
    return found


@pytest.mark.parametrize("suffix", ["jsonl", "json", "parquet"])
def test_a_clean_set_has_no_findings(tmp_path, suffix):
    path = WRITERS[suffix](tmp_path / f"clean.{suffix}", clean_sft_rows())
    report = audit(path)
    assert report.findings == [] and report.summary == {}
    assert report.num_rows == 24 and report.tokenizer == WHITESPACE


def test_planted_duplicates_and_outliers_are_found_at_their_rows(tmp_path):
    rows = clean_sft_rows()
    rows.append(dict(rows[3]))  # row 25: exact duplicate of row 4
    rows.append({**rows[6], "prompt": "  EXPLAIN black holes to a ten-year-old!! "})  # row 26: near duplicate of 7
    rows.append({**rows[1], "response": "word " * 400})  # row 27: response far too long
    rows.append({**rows[2], "prompt": "Hi"})  # row 28: prompt far too short
    path = write_jsonl(tmp_path / "planted.jsonl", rows)
    found = by_kind(audit(path))
    assert found == {
        "exact_duplicate": [[2, 27], [4, 25]],
        "near_duplicate": [[7, 26]],
        "length_outlier": [[28], [27]],
    }
    report = audit(path, near_duplicates=False, max_tokens=1000)
    assert "near_duplicate" not in by_kind(report)
    assert [f.rows for f in report.findings if f.kind == "length_outlier"] == [[28]]


def test_length_outliers_name_their_thresholds_and_tokenizer(tmp_path, demo_assets):
    rows = [{"prompt": f"What is {i} plus {i}?", "response": f"The answer is {2 * i}."} for i in range(20)]
    rows.append({"prompt": "What is 1 plus 1? " * 30, "response": "The answer is 2."})
    path = write_jsonl(tmp_path / "d.jsonl", rows)
    report = audit(path, tokenizer=str(demo_assets["model"]), near_duplicates=False)
    [outlier] = report.findings
    assert outlier.kind == "length_outlier" and outlier.rows == [21] and outlier.field == "prompt"
    assert outlier.details["tokenizer"] == str(demo_assets["model"].resolve())
    assert (
        outlier.details["direction"] == "longer" and outlier.details["tokens"][0] > outlier.details["threshold_tokens"]
    )
    assert outlier.message == "1 row with a prompt longer than 22.3 tokens (Tukey fence on log length, Q3 + 3·IQR)"


def test_templated_but_distinct_prompts_are_not_near_duplicates(tmp_path):
    rows = [
        {"prompt": f"What is {a} {op} {b}?", "response": "x"}
        for a in range(6)
        for b in range(6)
        for op in ("plus", "minus")
    ]
    assert by_kind(audit(write_jsonl(tmp_path / "d.jsonl", rows))) == {}


def test_format_errors_and_empty_fields_list_every_row(tmp_path):
    path = tmp_path / "broken.jsonl"
    lines = [json.dumps(r) for r in clean_sft_rows()[:3]]
    lines += ['{"prompt": "p", "response": ""}', "{oops", b"\xff".decode("latin-1"), '{"prompt": null}', "[1]"]
    path.write_bytes("\n".join(lines).encode("utf-8").replace("ÿ".encode(), b"\xff") + b"\n")
    report = audit(path)
    found = {(f.kind, f.field, tuple(f.rows)) for f in report.findings}
    assert {(field, rows) for kind, field, rows in found if kind == "empty_field"} == {
        ("response", (4,)),  # "field 'response' is empty"
        ("response", (7,)),  # "missing required field 'response'"
        ("prompt", (7,)),
    }
    assert {rows for kind, _, rows in found if kind == "format_error"} == {(5,), (6,), (8,)}
    assert report.summary == {"empty_field": 3, "format_error": 3}


def test_field_mapping_lets_other_column_names_pass(tmp_path):
    rows = [{"question": r["prompt"], "answer": r["response"]} for r in clean_sft_rows()]
    path = WRITERS["parquet"](tmp_path / "mapped.parquet", rows)
    unmapped = audit(path)
    assert [f.message for f in unmapped.findings] == ["24 rows: missing required field 'prompt'"] + [
        "24 rows: missing required field 'response'"
    ]
    assert audit(path, mapping={"prompt": "question", "response": "answer"}).findings == []
