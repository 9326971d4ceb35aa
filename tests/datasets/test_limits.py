"""What reading a dataset file may cost (docs/security.md, "Limits"): a JSON row nested deeper than the limit is
reported by its row before any parser sees it (pyarrow's reader would overflow the stack and take the server down);
a Parquet file decoding to more than the limit is refused from its metadata, or as its row groups decode."""

import json
import random

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.api.hostile_cases import files
from tests.datasets.files import clean_sft_rows, write_json, write_jsonl
from training_platform.datafiles import depth
from training_platform.datafiles.errors import DatasetFileError, OverLimitError, RowProblem
from training_platform.datafiles.limits import DEFAULT_LIMITS, ReadLimits
from training_platform.datafiles.readers import iter_rows
from training_platform.datafiles.table import load_table
from training_platform.datasets.schemas import DatasetRegister, DatasetUpload
from training_platform.errors import InvalidInputError
from training_platform.platform import Platform
from training_platform.settings import Settings

DEEP = "[" * 20_000 + "]" * 20_000  # 40 KB: the line that took the server down


def reference_depth(text: bytes, limit: int) -> int | None:
    """The element of a top-level array where the depth first exceeds `limit`, by the obvious byte loop."""
    depth, in_string, escaped, row = 0, False, False, 1
    for byte in text:
        char = chr(byte)
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == "\\":
            escaped = not escaped
            continue
        if char == '"' and not escaped:
            in_string = True
        escaped = False
        if char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 1:
            row += 1
        if depth > limit:
            return row
    return None


@pytest.mark.parametrize("window", [1, 2, 3, 7, 64, 1 << 18])
def test_the_scanner_agrees_with_a_byte_loop_across_windows(monkeypatch, window):
    monkeypatch.setattr(depth, "_WINDOW", window)
    rng = random.Random(window)
    for _ in range(2000):
        text = bytes(rng.choice(b'[]{}"\\,a \n') for _ in range(rng.randint(0, 60)))
        limit = rng.randint(0, 6)
        assert depth._measure(text, limit, depth._State()) == reference_depth(text, limit), (text, limit)


def test_brackets_inside_strings_do_not_count():
    assert not depth.too_deep(json.dumps({"a": "[" * 1000, "b": '\\"' + "{" * 1000}).encode(), 4)
    assert depth.too_deep(DEEP.encode(), 64)
    assert depth.too_deep(json.dumps({"a": "x\\", "b": [[[[[1]]]]]}).encode(), 5)


def test_the_defaults_are_the_settings_defaults():
    settings = Settings()
    assert (DEFAULT_LIMITS.max_json_depth, DEFAULT_LIMITS.max_decoded_bytes, DEFAULT_LIMITS.max_csv_columns) == (
        settings.max_json_depth,
        settings.max_decoded_bytes,
        settings.max_csv_columns,
    )


def deep_jsonl(tmp_path):
    rows = [json.dumps(row) for row in clean_sft_rows()]
    rows[3] = json.dumps({"prompt": "p", "response": "r", "extra": json.loads("[" * 70 + "]" * 70)})
    rows[5] = DEEP
    path = tmp_path / "deep.jsonl"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_a_jsonl_line_nested_too_deep_is_a_row_problem(tmp_path):
    table = load_table(deep_jsonl(tmp_path))
    assert [(p.row, p.message) for p in table.problems] == [(row, DEFAULT_LIMITS.too_deep_message()) for row in (4, 6)]
    assert table.num_rows == 24 and table.frame.height == 22
    rows = dict(iter_rows(deep_jsonl(tmp_path), start=4))
    assert isinstance(rows[4], RowProblem) and isinstance(rows[6], RowProblem) and rows[5]["prompt"]
    # A higher limit reads the 70 levels.
    assert [p.row for p in load_table(deep_jsonl(tmp_path), ReadLimits(max_json_depth=100)).problems] == [6]


def test_registration_names_the_deep_rows(platform, tmp_path):
    path = deep_jsonl(tmp_path)
    with pytest.raises(InvalidInputError) as caught:
        platform.datasets.register(DatasetRegister(name="deep", path=str(path), kind="sft"))
    # One problem of two rows: said once, naming both.
    [deep] = [e.message for e in caught.value.errors if "nests deeper than 64 levels" in e.message]
    assert deep.endswith(": 2 of 24 rows (rows 4, 6)")
    registered = platform.datasets.register(
        DatasetRegister(name="deep", path=str(path), kind="sft", allow_invalid_rows=True)
    )
    assert (registered.num_rows, registered.num_invalid) == (24, 2)
    page = platform.datasets.rows("deep", 5, 1).rows[0]
    assert page.row == 6 and "nests deeper" in page.problem


def test_a_json_array_with_a_deep_element_is_refused_naming_it(platform, tmp_path):
    rows = clean_sft_rows()
    rows[2]["extra"] = json.loads("[" * 80 + "]" * 80)
    path = write_json(tmp_path / "deep.json", rows)
    with pytest.raises(DatasetFileError, match="row 3 nests deeper than 64 levels"):
        load_table(path)
    with pytest.raises(InvalidInputError, match="row 3 nests deeper"):
        platform.datasets.register(DatasetRegister(name="deep", path=str(path), kind="sft"))
    (tmp_path / "deeper.json").write_text("[" + DEEP + "]")
    with pytest.raises(DatasetFileError, match="row 1 nests deeper"):
        load_table(tmp_path / "deeper.json")


def parquet_bomb(path, rows: int = 25_000_000):
    """A file of a few hundred KB whose values decode to 200 MB (one value repeated: run-length encoded)."""
    pq.write_table(pa.table({"prompt": pa.array([0] * rows, pa.int64())}), path, compression="zstd")
    return path


def test_a_parquet_file_decoding_beyond_the_limit_is_refused_from_its_metadata(settings, tmp_path):
    path = parquet_bomb(tmp_path / "bomb.parquet")
    assert path.stat().st_size < 2**20
    limits = ReadLimits(max_decoded_bytes=100 * 2**20)
    for read in (lambda: load_table(path, limits), lambda: next(iter_rows(path, 1, limits))):
        with pytest.raises(DatasetFileError, match="PLATFORM_MAX_DECODED_BYTES"):
            read()
    platform = Platform.open(settings.model_copy(update={"max_decoded_bytes": 100 * 2**20}))
    try:
        request = DatasetUpload(name="bomb", kind="sft", filename="bomb.parquet")
        with pytest.raises(InvalidInputError, match="decodes to at least 200000000 bytes"):
            with platform.datasets.receive(request.filename) as staged:
                staged.write(path.read_bytes())
                platform.datasets.finish_upload(staged, request)
        assert platform.datasets.list_all() == []
    finally:
        platform.close()


def test_what_the_metadata_does_not_show_is_counted_as_it_decodes(tmp_path):
    """One long text repeated: dictionary-encoded, its metadata says a few KB; decoded, each row holds it all."""
    path = tmp_path / "repeated.parquet"
    table = pa.table({"prompt": ["x" * 1000] * 10_000, "response": ["y"] * 10_000})
    pq.write_table(table, path, row_group_size=1000)
    limits = ReadLimits(max_decoded_bytes=2**20)
    with pytest.raises(DatasetFileError, match="decodes to more than the limit"):
        load_table(path, limits)
    assert load_table(path, ReadLimits(max_decoded_bytes=2**30)).num_rows == 10_000


def test_a_clean_file_reads_as_before(tmp_path):
    path = write_jsonl(tmp_path / "clean.jsonl", clean_sft_rows())
    assert load_table(path).num_rows == 24 and not load_table(path).problems


# ---- what the metadata hides, counted as it decodes (hostile_cases/files.py builds the same bombs) ----------------

TWO_MIB = ReadLimits(max_decoded_bytes=2 * 2**20)


@pytest.mark.parametrize(
    ("name", "build"),
    [("bomb.parquet", files.parquet_dictionary_bomb), ("bomb.arrow", files.arrow_dictionary_bomb)],
)
def test_a_dictionary_is_counted_as_its_values_times_its_largest_entry(tmp_path, name, build):
    path = tmp_path / name
    path.write_bytes(build())
    for read in (lambda: load_table(path, TWO_MIB), lambda: next(iter_rows(path, 1, TWO_MIB))):
        with pytest.raises(OverLimitError, match="PLATFORM_MAX_DECODED_BYTES"):
            read()


def test_a_page_of_dictionary_rows_within_the_limit_reads_as_plain_values(tmp_path):
    path = tmp_path / "repeated.arrow"
    path.write_bytes(files.arrow_dictionary_bomb())
    generous = ReadLimits(max_decoded_bytes=2**30)
    rows = [row for _number, row in zip(range(3), iter_rows(path, 299, generous), strict=False)]
    assert [number for number, _row in rows] == [299, 300]
    assert rows[0][1] == {"prompt": "x" * 2**20, "response": "a"}
    parquet = tmp_path / "repeated.parquet"
    parquet.write_bytes(files.parquet_dictionary_bomb())
    table = load_table(parquet, generous)
    assert table.num_rows == 30_000 and table.frame["prompt"].dtype == pl.String


def test_a_buffer_length_outside_its_message_is_refused(tmp_path):
    path = tmp_path / "negative.arrow"
    path.write_bytes(files.arrow_negative_validity())
    for read in (lambda: load_table(path), lambda: next(iter_rows(path))):
        with pytest.raises(DatasetFileError, match="outside its message"):
            read()


def test_a_csv_header_over_the_column_limit_is_refused_before_a_row_is_read(tmp_path):
    path = tmp_path / "wide.csv"
    path.write_bytes(files.wide_csv())
    for read in (lambda: load_table(path), lambda: next(iter_rows(path))):
        with pytest.raises(OverLimitError, match="100000 columns, over the limit of 10000"):
            read()
    assert load_table(path, ReadLimits(max_csv_columns=100_000)).num_rows == 1


def test_at_the_default_decoded_limit_the_workers_memory_holds(settings, tmp_path):
    """A Parquet file of a few hundred bytes that decodes to 1 GB, under the default limit of 8 GiB: the decoding
    worker runs out of its memory budget, the registration is refused naming it, this process never held it."""
    rows = 100_000
    table = pa.table(
        {
            "prompt": pa.DictionaryArray.from_arrays(pa.array([0] * rows, pa.int32()), pa.array(["x" * 10_000])),
            "response": pa.array(["a"] * rows),
        }
    )
    path = tmp_path / "bomb.parquet"
    pq.write_table(table, path, compression="zstd")
    assert path.stat().st_size < 4096
    platform = Platform.open(settings.model_copy(update={"decode_memory_bytes": 256 * 2**20}))
    try:
        with pytest.raises(InvalidInputError, match="PLATFORM_DECODE_MEMORY_BYTES") as refused:
            platform.datasets.register(DatasetRegister(name="bomb", path=str(path), kind="sft"))
        assert refused.value.errors[0].field == "path"
        assert platform.datasets.list_all() == []
    finally:
        platform.close()
