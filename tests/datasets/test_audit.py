"""The audit on real files: planted problems are found at their rows, a clean set gives no finding."""

import json

import pytest

from tests.datasets.files import TOPICS, WRITERS, clean_sft_rows, write_jsonl
from training_platform.datafiles.formats import schema_for
from training_platform.datafiles.table import apply_field_mapping, load_table
from training_platform.datasets.audit import AuditOptions, audit_table
from training_platform.datasets.tokens import ESTIMATE, token_counter
from training_platform.datasets.vectors import Embedder, SemanticIndex, VectorStore

SPIDER = ["How many legs does a spider have?", "What is the number of legs on a spider?"]
TOOLS = [{"type": "function", "function": {"name": "search", "parameters": {"type": "object"}}}]


def audit(path, kind="sft", mapping=None, index=None, unused_columns=(), **options):
    table = load_table(path)
    table.frame = apply_field_mapping(table.frame, mapping or {})
    counter = token_counter(options.get("tokenizer"))
    return audit_table(
        table, kind, schema_for(kind), AuditOptions(**options), counter, index, unused_columns=unused_columns
    )


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    """The MiniLM model installed as a package (no download); one torch thread, as in test_vectors.py."""
    return Embedder(batch_size=64, cpu_threads=1)


@pytest.fixture
def index(tmp_path, embedder):
    index = SemanticIndex(VectorStore(str(tmp_path / "vectors" / "milvus.db")), embedder, "audit", content="test")
    yield index
    index.store.close()


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
    assert report.num_rows == 24 and report.tokenizer == ESTIMATE


def test_chinese_near_duplicates_are_found_by_their_characters(tmp_path):
    """Chinese puts no spaces between words: its shingles are character bigrams, so one word changed in a sentence
    leaves a near duplicate, and a sentence of the same template about something else is not one."""
    rows = clean_sft_rows()
    for prompt in (
        "请用简单的话解释一下黑洞是怎样形成的，以及它为什么会吸走光线。",
        "请用简单的话解释一下黑洞是怎么形成的，以及它为什么会吸走光线？",
        "请用简单的话解释一下彩虹是怎样形成的，以及它为什么有七种颜色。",
    ):
        rows.append({**rows[0], "prompt": prompt})
    report = audit(write_jsonl(tmp_path / "zh.jsonl", rows))
    [near] = [finding for finding in report.findings if finding.kind == "near_duplicate"]
    assert near.rows == [25, 26]
    assert near.in_language("zh-CN").message == "2 行的 prompt 几乎相同（词或字二元组的 Jaccard 相似度 ≥ 0.8）"


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


def clean_dpo_rows() -> list[dict]:
    """Preference pairs with the columns the platform passes through, each of the right shape."""
    return [
        {
            "prompt": row["prompt"],
            "chosen": row["response"],
            "rejected": f"I would rather not say anything about {topic} today, so please ask someone else instead.",
            "system": "You are a patient tutor.",
            "tools": TOOLS,
            "data_source": row["data_source"],
            "label": "reviewed",
            "notes": f"batch {index // 8}",
        }
        for index, (row, topic) in enumerate(zip(clean_sft_rows(), TOPICS, strict=True))
    ]


def assistant(content: str, **extra) -> list[dict]:
    return [{"role": "assistant", "content": content, **extra}]


def call(name: str) -> list[dict]:
    return [{"type": "function", "function": {"name": name, "arguments": "{}"}}]


def test_a_messy_preference_file_is_caught_at_its_rows(tmp_path, index):
    rows = clean_dpo_rows()
    answer = "Paris is the capital of France, and it has been the seat of its government for centuries."
    planted = [
        # 25: chosen and rejected the same text but for white space
        {"prompt": "Which city is the capital of France?", "chosen": answer + "  ", "rejected": " " + answer},
        # 26: the same text, once as assistant messages
        {
            "prompt": "Which river flows through the middle of Paris?",
            "chosen": assistant(answer),
            "rejected": answer + "\n",
        },
        # 27: the same text, but calling different tools: a real preference
        {
            "prompt": "Look up the weather in Paris for me.",
            "chosen": assistant(answer, tool_calls=call("weather")),
            "rejected": assistant(answer, tool_calls=call("search")),
        },
        {"prompt": "Explain how a rainbow forms in the sky.", "data_source": 3},  # 28: a number among text labels
        {"prompt": "Explain how a kettle boils water so fast.", "system": ["You are", "a tutor."]},  # 29
        {"prompt": "Explain how a bicycle stays upright when moving.", "tools": TOOLS[0]},  # 30: not a list
        {"prompt": "Explain how a compass finds the north pole.", "label": {"score": 1}},  # 31
        {"prompt": SPIDER[0], "notes": 7},  # 32: the paraphrase pair; `notes` is read by nothing
        {"prompt": SPIDER[1]},  # 33
    ]
    rows += [{**rows[0], "chosen": answer, "rejected": rows[0]["rejected"], **row} for row in planted]
    path = write_jsonl(tmp_path / "messy.jsonl", rows)
    report = audit(path, "dpo", index=index, unused_columns=["notes"], semantic=True)
    assert by_kind(report) == {
        "wrong_type": [[29], [30], [28], [31]],  # in the order of the columns
        "identical_pair": [[25, 26]],
        "semantic_duplicate": [[32, 33]],
        "unused_column": [[]],
    }
    wrong = {finding.field: finding.message for finding in report.findings if finding.kind == "wrong_type"}
    assert wrong == {
        "data_source": "row 28: field 'data_source' should be text, found number (1 row)",
        "system": "row 29: field 'system' should be text, found list of text (1 row)",
        "tools": "row 30: field 'tools' should be a list of tool schema objects, found object (1 row)",
        "label": "row 31: field 'label' should be text, found object (1 row)",
    }
    [unused] = [finding for finding in report.findings if finding.kind == "unused_column"]
    assert unused.details == {"columns": ["notes"]} and "'notes'" in unused.message
    # Rows per kind, and the unused columns counted as columns: the summary leaves no finding out.
    assert report.summary == {"wrong_type": 4, "identical_pair": 2, "semantic_duplicate": 2, "unused_column": 1}
    assert report.unused_columns == ["notes"]
    assert "types" in report.checks and "identical chosen and rejected" in report.checks

    # The same file without the caller's word on `notes`: its number among text is a wrong type too.
    assert by_kind(audit(path, "dpo"))["wrong_type"] == [[29], [30], [28], [31], [32]]


@pytest.mark.parametrize("suffix", ["jsonl", "parquet"])
def test_a_clean_preference_file_has_no_findings(tmp_path, index, suffix):
    path = WRITERS[suffix](tmp_path / f"clean.{suffix}", clean_dpo_rows())
    report = audit(path, "dpo", index=index, semantic=True)
    assert report.findings == [] and report.summary == {}


def test_fields_that_validation_checks_are_not_reported_twice(tmp_path):
    rows = [{**row, "tools": TOOLS} for row in clean_sft_rows()]
    rows[4] = {**rows[4], "tools": "not a list"}  # text tools: LLaMA-Factory's JSON text, which validation refuses
    rows[5] = {**rows[5], "prompt": [{"role": "user", "content": rows[5]["prompt"]}]}  # text or chat: both fine
    found = {(f.kind, tuple(f.rows)) for f in audit(write_jsonl(tmp_path / "sft.jsonl", rows)).findings}
    assert found == {("format_error", (5,))}
