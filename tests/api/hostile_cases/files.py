"""Attacks on untrusted files decoded under hard limits: decompression and dictionary bombs, lying metadata,
tokenizers. Each bomb is built here, at run time, and answers 422 naming the limit it broke, fast; the server's
resident memory through all of them is asserted in test_hostile.py's last test (docs/security.md)."""

import io
import json
import struct
from collections.abc import Callable

import pyarrow as pa
import pyarrow.parquet as pq
from tokenizers import Regex, Tokenizer, models, pre_tokenizers

from tests.support.hostile import MAX_DECODED_BYTES, Answer, Case, Hostile, all_of, fast, mentions, refused_naming

DECODED_LIMIT = "PLATFORM_MAX_DECODED_BYTES"


def parquet_dictionary_bomb() -> bytes:
    """About 900 bytes: one row group whose prompt column is a dictionary of one 10 kB string and 30,000 indices,
    300 MB decoded; its metadata says 120 kB."""
    rows = 30_000
    table = pa.table(
        {
            "prompt": pa.DictionaryArray.from_arrays(pa.array([0] * rows, pa.int32()), pa.array(["x" * 10_000])),
            "response": pa.DictionaryArray.from_arrays(pa.array([0] * rows, pa.int32()), pa.array(["a"])),
        }
    )
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    assert len(sink.getvalue()) < 2048
    return sink.getvalue()


def arrow_dictionary_bomb() -> bytes:
    """About 1,500 bytes of compressed Arrow IPC: a 1 MiB dictionary entry and 300 int8 indices, 300 MiB as rows."""
    table = pa.table(
        {
            "prompt": pa.DictionaryArray.from_arrays(pa.array([0] * 300, pa.int8()), pa.array(["x" * 2**20])),
            "response": pa.DictionaryArray.from_arrays(pa.array([0] * 300, pa.int8()), pa.array(["a"])),
        }
    )
    sink = io.BytesIO()
    with pa.ipc.new_file(sink, table.schema, options=pa.ipc.IpcWriteOptions(compression="zstd")) as writer:
        writer.write_table(table)
    assert len(sink.getvalue()) < 2048 and 300 * 2**20 > 100 * MAX_DECODED_BYTES
    return sink.getvalue()


def arrow_negative_validity() -> bytes:
    """An Arrow IPC file whose prompt column's validity buffer declares a negative length: summed with the other
    buffers it made the file measure smaller than it is."""
    rows = 1000
    table = pa.table({"prompt": pa.array([None] + ["q"] * (rows - 1)), "response": pa.array(["a"] * rows)})
    sink = io.BytesIO()
    with pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    validity = struct.pack("<qq", 0, rows // 8)  # the Buffer struct (offset, length) of the first validity buffer
    assert sink.getvalue().count(validity) == 1
    return sink.getvalue().replace(validity, struct.pack("<qq", 0, -(100 * 2**20)))


def wide_csv() -> bytes:
    """About 1 MB: a header of 100,000 columns and one row."""
    columns = 100_000
    return (",".join(f"c{i}" for i in range(columns)) + "\n" + ",".join("x" * columns) + "\n").encode()


def clean_arrow() -> bytes:
    table = pa.table({"prompt": ["What is 2 + 2?"], "response": ["4"]})
    sink = io.BytesIO()
    with pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue()


def reads_of_a_swapped_bomb(h: Hostile) -> Answer:
    """A clean Arrow file registered where it lies, then overwritten with the dictionary bomb: every later read
    (statistics, a page of rows, a viewer's) is refused naming the limit, and the dataset is deleted afterwards."""
    path = h.data / "swapped.arrow"
    path.write_bytes(clean_arrow())
    registered = h.call("alice", "POST", "/datasets", json={"name": "swapped-arrow", "path": str(path), "kind": "sft"})
    assert registered.status == 201, registered.text
    path.write_bytes(arrow_dictionary_bomb())
    try:
        for who, route in (("alice", "stats"), ("alice", "rows"), ("val", "rows"), ("val", "stats")):
            answer = h.call(who, "GET", f"/datasets/swapped-arrow/{route}")
            assert answer.status == 422 and DECODED_LIMIT in answer.text, (route, answer.status, answer.text)
            assert answer.seconds < 10, (route, answer.seconds)
        return answer
    finally:
        assert h.call("alice", "DELETE", "/datasets/swapped-arrow").status == 204


def backtracking_tokenizer(h: Hostile):
    """A model folder (config.json) in a data root whose tokenizer.json splits text with a catastrophically
    backtracking regex: each of the rows below costs it a good part of a second."""
    folder = h.data / "planted-model"
    folder.mkdir(exist_ok=True)
    (folder / "config.json").write_text("{}")
    tokenizer = Tokenizer(models.WordLevel({"[UNK]": 0}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Split(Regex(r"(\w+\s?)+$"), behavior="isolated")
    tokenizer.save(str(folder / "tokenizer.json"))
    return folder


def stats_with_a_backtracking_tokenizer(h: Hostile) -> Answer:
    rows = "".join(json.dumps({"prompt": "a" * 21 + "!", "response": "b" * 21 + "!"}) + "\n" for _ in range(256))
    uploaded = bomb_upload("backtracking-rows", "rows.jsonl", rows.encode)(h)
    assert uploaded.status == 201, uploaded.text
    try:
        tokenizer = str(backtracking_tokenizer(h))
        return h.call("val", "GET", "/datasets/backtracking-rows/stats", params={"tokenizer": tokenizer})
    finally:
        assert h.call("alice", "DELETE", "/datasets/backtracking-rows").status == 204


def bomb_upload(name: str, filename: str, content: Callable[[], bytes]) -> Callable[[Hostile], Answer]:
    def send(h: Hostile) -> Answer:
        params = {"name": name, "kind": "sft", "filename": filename}
        headers = {"content-type": "application/octet-stream"}
        return h.call("alice", "POST", "/datasets/upload", params=params, content=content(), headers=headers)

    return send


CASES: list[Case] = [
    Case(
        "parquet-dictionary-bomb-one-row-group",
        bomb_upload("dictionary-bomb", "bomb.parquet", parquet_dictionary_bomb),
        422,
        all_of(refused_naming("file"), mentions(DECODED_LIMIT), fast(10.0)),
    ),
    Case(
        "arrow-dictionary-bomb",
        bomb_upload("arrow-bomb", "bomb.arrow", arrow_dictionary_bomb),
        422,
        all_of(refused_naming("file"), mentions(DECODED_LIMIT), fast(10.0)),
    ),
    Case("arrow-dictionary-bomb-read-after-registration", reads_of_a_swapped_bomb, 422, mentions(DECODED_LIMIT)),
    Case(
        "arrow-negative-validity-length",
        bomb_upload("negative-validity", "negative.arrow", arrow_negative_validity),
        422,
        all_of(refused_naming("file"), mentions("outside its message"), fast(10.0)),
    ),
    Case(
        "csv-100000-columns",
        bomb_upload("wide-csv", "wide.csv", wide_csv),
        422,
        all_of(refused_naming("file"), mentions("PLATFORM_MAX_CSV_COLUMNS"), fast(10.0)),
    ),
    Case(
        "tokenizer-backtracking-regex",
        stats_with_a_backtracking_tokenizer,
        422,
        all_of(mentions("PLATFORM_DECODE_CPU_SECONDS"), fast(30.0)),
    ),
]
