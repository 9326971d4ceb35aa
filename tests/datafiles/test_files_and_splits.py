"""The files and folders people bring: CSV files, folders Hugging Face datasets' `save_to_disk` wrote, and
downloaded hub repositories whose splits are read one at a time, never together (datafiles/layout.py)."""

import csv
import json
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from datasets import Dataset, DatasetDict

from tests.datasets.files import clean_sft_rows, write_jsonl
from training_platform.datafiles.errors import DatasetFileError, RowProblem
from training_platform.datafiles.layout import checked_data_path, data_files, dataset_format, dataset_splits
from training_platform.datafiles.limits import ReadLimits
from training_platform.datafiles.readers import count_rows, iter_rows
from training_platform.datafiles.table import ROW, load_table
from training_platform.datasets.schemas import DatasetUpload
from training_platform.errors import InvalidInputError


def rows_of(path, **split):
    return [(number, row) for number, row in iter_rows(path, **split)]


def table_rows(table):
    """(row number, row) pairs of a table's readable rows, as iter_rows gives them."""
    return [(row.pop(ROW), row) for row in table.frame.to_dicts()]


def sft_rows(prefix, count):
    return [{"prompt": f"{prefix} prompt {i}", "response": f"{prefix} response {i}"} for i in range(count)]


# ---- CSV --------------------------------------------------------------------------------------------------

CSV = (
    "\ufeffprompt,response,note\r\n"  # a byte order mark and Windows line ends, as spreadsheets write them
    "What is 2+2?,4,\r\n"
    "\r\n"  # a blank line is no row
    '"Say ""hi"", politely","Hello,\r\nthere",NA\r\n'  # quotes, a comma and a line break inside quoted values
    "Name a colour,blue,null\r\n"
)
CSV_ROWS = [
    (1, {"prompt": "What is 2+2?", "response": "4", "note": ""}),
    (2, {"prompt": 'Say "hi", politely', "response": "Hello,\r\nthere", "note": "NA"}),
    (3, {"prompt": "Name a colour", "response": "blue", "note": "null"}),
]


def test_a_csv_file_reads_the_same_rows_both_ways(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text(CSV, encoding="utf-8", newline="")
    assert rows_of(path) == CSV_ROWS  # an empty cell is "", and "NA" or "null" are text
    table = load_table(path)
    assert (table_rows(table), table.problems, table.num_rows) == (CSV_ROWS, [], 3)
    assert table.frame.schema["note"] == table.frame.schema["prompt"]  # every column is text
    assert list(iter_rows(path, start=3)) == CSV_ROWS[2:]
    assert (count_rows(path), dataset_format(path)) == (3, "csv")


def test_a_broken_csv_row_is_named_and_the_rest_kept(tmp_path):
    path = tmp_path / "d.csv"
    path.write_bytes(b"prompt,response\np1,r1\np2\np3,r3,extra\np4,\xff\xfe\n\np5,r5\n")
    expected = [
        (1, {"prompt": "p1", "response": "r1"}),
        (2, RowProblem(2, "has 1 fields where the header has 2")),
        (3, RowProblem(3, "has 3 fields where the header has 2")),
        (4, RowProblem(4, "not valid UTF-8 (column 'response')")),
        (5, {"prompt": "p5", "response": "r5"}),
    ]
    assert rows_of(path) == expected
    table = load_table(path)  # pyarrow refuses the file: it is read row by row, each row where it was
    assert table_rows(table) == [expected[0], expected[4]]
    assert (table.problems, table.num_rows) == ([row for _, row in expected[1:4]], 5)
    assert count_rows(path) == 5


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is empty: a CSV file starts with a header row"),
        (b"\n\n", "is empty: a CSV file starts with a header row"),
        (b"prompt,prompt\na,b\n", "names the column 'prompt' twice"),
        (b",\na,b\n", "names the column '' twice"),
        (b"pr\xffompt,response\na,b\n", "the header row is not valid UTF-8"),
    ],
)
def test_a_csv_file_without_a_usable_header_is_refused_whole(tmp_path, content, message):
    path = tmp_path / "d.csv"
    path.write_bytes(content)
    for read in (lambda: load_table(path), lambda: list(iter_rows(path))):
        with pytest.raises(DatasetFileError, match=message):
            read()


def test_a_csv_file_is_bounded_like_the_others(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("prompt,response\n" + "".join(f"{'x' * 1000},y\n" for _ in range(2000)))
    with pytest.raises(DatasetFileError, match="decodes to more than the limit .*PLATFORM_MAX_DECODED_BYTES"):
        load_table(path, ReadLimits(max_decoded_bytes=2**20))
    assert load_table(path, ReadLimits(max_decoded_bytes=2**30)).num_rows == 2000
    # A record longer than pyarrow's block is read row by row, whole.
    path.write_text(f'prompt,response\np,"{"y" * (17 << 20)}"\n')
    assert [len(row["response"]) for _, row in iter_rows(path)] == [len(load_table(path).frame["response"][0])]


def test_a_csv_file_can_be_uploaded(platform, tmp_path):
    path = tmp_path / "d.csv"
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, ["prompt", "response", "data_source"])
        writer.writeheader()
        writer.writerows(clean_sft_rows())
    request = DatasetUpload(name="from-csv", kind="sft", filename="d.csv")
    platform.datasets.check_upload(request)
    with platform.datasets.receive(request.filename) as staged:
        staged.write(path.read_bytes())
        dataset = platform.datasets.finish_upload(staged, request)
    assert (dataset.num_rows, dataset.num_invalid, dataset.file_format) == (24, 0, "csv")
    with pytest.raises(InvalidInputError, match=r"must end in .json, .jsonl, .parquet, .csv or .arrow"):
        platform.datasets.check_upload(DatasetUpload(name="other", kind="sft", filename="d.txt"))


# ---- folders save_to_disk wrote -----------------------------------------------------------------------------


def test_a_save_to_disk_folder_is_one_arrow_dataset_read_in_its_state_order(tmp_path):
    rows = sft_rows("saved", 7)
    folder = tmp_path / "saved"
    Dataset.from_list(rows).save_to_disk(str(folder), num_shards=3)
    shards = sorted(folder.glob("*.arrow"))
    assert len(shards) == 3 and (folder / "dataset_info.json").is_file()
    # Only the .arrow files are data: dataset_info.json and state.json are never read as rows.
    assert dataset_splits(folder) == {"train": shards} and data_files(folder) == shards
    assert rows_of(folder) == list(enumerate(rows, start=1))
    assert table_rows(load_table(folder)) == list(enumerate(rows, start=1))
    assert (count_rows(folder), dataset_format(folder)) == (7, "arrow")
    assert list(iter_rows(folder, start=6)) == [(6, rows[5]), (7, rows[6])]

    # The order is state.json's, not the names'.
    state = json.loads((folder / "state.json").read_text())
    state["_data_files"].reverse()
    (folder / "state.json").write_text(json.dumps(state))
    assert data_files(folder) == shards[::-1]
    sizes = [count_rows(shard) for shard in shards]
    reordered = rows[sum(sizes[:2]) :] + rows[sizes[0] : sum(sizes[:2])] + rows[: sizes[0]]
    assert [row for _, row in iter_rows(folder)] == reordered


def test_a_dataset_dict_folder_holds_splits(tmp_path):
    splits = {"train": sft_rows("train", 5), "validation": sft_rows("validation", 3), "test": sft_rows("test", 2)}
    folder = tmp_path / "dict"
    DatasetDict({name: Dataset.from_list(rows) for name, rows in splits.items()}).save_to_disk(str(folder))
    found = dataset_splits(folder)
    assert list(found) == ["train", "validation", "test"]
    assert all(file.parent == folder / name and file.suffix == ".arrow" for name in found for file in found[name])
    # Read without a split, the folder is its train split; every split is read alone.
    assert [row for _, row in iter_rows(folder)] == splits["train"]
    for name, rows in splits.items():
        assert [row for _, row in iter_rows(folder, split=name)] == rows
        assert table_rows(load_table(folder, split=name)) == list(enumerate(rows, start=1))
        assert count_rows(folder, split=name) == len(rows)
    assert [row for _, row in iter_rows(folder, split="val")] == splits["validation"]


def test_a_dataset_dict_split_named_valid_is_the_validation_split(tmp_path):
    folder = tmp_path / "dict"
    rows = sft_rows("valid", 2)
    DatasetDict({"train": Dataset.from_list(sft_rows("t", 1)), "valid": Dataset.from_list(rows)}).save_to_disk(
        str(folder)
    )
    assert list(dataset_splits(folder)) == ["train", "validation"]
    assert [row for _, row in iter_rows(folder, split="validation")] == rows
    assert data_files(folder, split="dev") == [folder / "valid" / "data-00000-of-00001.arrow"]


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ({"_data_files": [{"filename": "../elsewhere.arrow"}]}, "must list the folder's .arrow files"),
        ({"_data_files": [{"filename": "gone.arrow"}]}, "lists gone.arrow, missing from"),
        ({"_data_files": []}, "must list the folder's .arrow files"),
        ([1, 2], "is not a JSON object"),
    ],
)
def test_a_state_json_that_names_no_file_of_its_folder_is_refused(tmp_path, state, message):
    folder = tmp_path / "saved"
    Dataset.from_list(sft_rows("s", 2)).save_to_disk(str(folder))
    (folder / "state.json").write_text(json.dumps(state))
    with pytest.raises(DatasetFileError, match=message):
        data_files(folder)


# ---- downloaded hub repositories ----------------------------------------------------------------------------


def hub_snapshot(root, train=3, test=2):
    """A repository as a hub download leaves it: a card, .gitattributes, and one Parquet shard per split."""
    (root / "data").mkdir(parents=True)
    (root / "README.md").write_text("---\nconfigs:\n- config_name: default\n---\n# A dataset\n")
    (root / ".gitattributes").write_text("*.parquet filter=lfs diff=lfs merge=lfs -text\n")
    (root / ".cache" / "huggingface").mkdir(parents=True)
    (root / ".cache" / "huggingface" / "leftover.json").write_text("{}")
    pq.write_table(pa.Table.from_pylist(sft_rows("train", train)), root / "data" / "train-00000-of-00001.parquet")
    pq.write_table(pa.Table.from_pylist(sft_rows("test", test)), root / "data" / "test-00000-of-00001.parquet")
    return root


def test_a_hub_snapshot_reads_its_train_split_by_default_and_never_merges_splits(tmp_path):
    repo = hub_snapshot(tmp_path / "repo")
    train, test = sft_rows("train", 3), sft_rows("test", 2)
    assert dataset_splits(repo) == {
        "train": [repo / "data" / "train-00000-of-00001.parquet"],
        "test": [repo / "data" / "test-00000-of-00001.parquet"],
    }
    assert rows_of(repo) == list(enumerate(train, start=1))
    assert rows_of(repo, split="test") == list(enumerate(test, start=1))
    table = load_table(repo)
    assert (table.num_rows, table_rows(table)) == (3, list(enumerate(train, start=1)))
    assert load_table(repo, split="test").num_rows == 2
    assert (count_rows(repo), count_rows(repo, split="test"), dataset_format(repo, split="test")) == (3, 2, "parquet")
    # Its data/ folder alone names the same splits, by the files' names.
    assert dataset_splits(repo / "data") == {
        "train": [repo / "data" / "train-00000-of-00001.parquet"],
        "test": [repo / "data" / "test-00000-of-00001.parquet"],
    }
    assert [row for _, row in iter_rows(repo / "data")] == train


@pytest.mark.parametrize(
    ("files", "splits"),
    [
        (["train.jsonl", "test.jsonl"], {"train": ["train.jsonl"], "test": ["test.jsonl"]}),
        (
            ["train/part-0.jsonl", "train/part-1.jsonl", "valid/part-0.jsonl"],
            {"train": ["train/part-0.jsonl", "train/part-1.jsonl"], "validation": ["valid/part-0.jsonl"]},
        ),
        (["data/dev.csv", "data/train.csv"], {"train": ["data/train.csv"], "validation": ["data/dev.csv"]}),
        (
            ["my_train_set.json", "my_val_set.json", "my_eval_set.json"],
            {"train": ["my_train_set.json"], "validation": ["my_val_set.json"], "test": ["my_eval_set.json"]},
        ),
        (
            [
                "data/validation-00000-of-00001.jsonl",
                "data/train-00000-of-00002.jsonl",
                "data/train-00001-of-00002.jsonl",
            ],
            {
                "train": ["data/train-00000-of-00002.jsonl", "data/train-00001-of-00002.jsonl"],
                "validation": ["data/validation-00000-of-00001.jsonl"],
            },
        ),
        # No split is named: one dataset, as before (the folder's own files, in name order).
        (["b.jsonl", "a.jsonl", "contest.jsonl"], {"train": ["a.jsonl", "b.jsonl", "contest.jsonl"]}),
        # ... or every data file below it, when it has none itself.
        (["data/a.jsonl", "data/more/b.jsonl"], {"train": ["data/a.jsonl", "data/more/b.jsonl"]}),
    ],
)
def test_split_layouts(tmp_path, files, splits):
    rows = {name: [{"prompt": f"{name} {i}", "response": "r"} for i in range(2)] for name in files}
    for name, content in rows.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".csv":
            path.write_text("prompt,response\n" + "".join(f"{r['prompt']},r\n" for r in content))
        elif path.suffix == ".json":
            path.write_text(json.dumps(content))
        else:
            write_jsonl(path, content)
    found = dataset_splits(tmp_path)
    assert {name: [f.relative_to(tmp_path).as_posix() for f in found[name]] for name in found} == splits
    assert list(found)[0] == "train"
    for name, split_files in splits.items():
        expected = [row for file in split_files for row in rows[file]]
        assert [row for _, row in iter_rows(tmp_path, split=name)] == expected


def test_an_unknown_split_is_refused_naming_the_splits_there_are(tmp_path):
    repo = hub_snapshot(tmp_path / "repo")
    for read in (
        lambda: data_files(repo, split="validation"),
        lambda: list(iter_rows(repo, split="validation")),
        lambda: load_table(repo, split="validation"),
        lambda: count_rows(repo, split="validation"),
        lambda: dataset_format(repo, split="validation"),
    ):
        with pytest.raises(DatasetFileError, match=r"has no split 'validation'; its splits: train, test"):
            read()
    only_test = tmp_path / "only_test"
    only_test.mkdir()
    write_jsonl(only_test / "test.jsonl", sft_rows("t", 1))
    with pytest.raises(DatasetFileError, match="has no train split to read by default; name one of: test"):
        load_table(only_test)
    file = write_jsonl(tmp_path / "one.jsonl", sft_rows("o", 1))
    assert data_files(file, split="train") == [file]
    with pytest.raises(DatasetFileError, match="has no split 'test'; its splits: train"):
        data_files(file, split="test")


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (["train.jsonl", "test.jsonl", "extra.jsonl"], r"has splits \(test, train\), but extra.jsonl belongs to none"),
        (["train_test.jsonl"], r"is named for two splits \(test, train\)"),
        (["train.jsonl", "train.parquet", "test.jsonl"], "split 'train' of .* mixes formats"),
        (["data/val-00000-of-00001.jsonl", "data/validation-00000-of-00001.jsonl"], "two validation splits"),
    ],
)
def test_folders_whose_splits_are_unclear_are_refused(tmp_path, files, message):
    for name in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        if name.endswith(".parquet"):
            pq.write_table(pa.Table.from_pylist(sft_rows("p", 1)), tmp_path / name)
        else:
            write_jsonl(tmp_path / name, sft_rows("j", 1))
    with pytest.raises(DatasetFileError, match=message):
        dataset_splits(tmp_path)


def test_every_file_of_every_split_is_checked_under_the_data_roots(tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    outside.mkdir()
    repo = hub_snapshot(root / "repo")
    assert checked_data_path(str(repo), [root], "path") == repo
    # The test split is a link out of the roots: the path is refused, though the default read never opens it.
    shard = repo / "data" / "test-00000-of-00001.parquet"
    os.replace(shard, outside / shard.name)
    shard.symlink_to(outside / shard.name)
    with pytest.raises(InvalidInputError, match="not under the platform's data roots"):
        checked_data_path(str(repo), [root], "path")

    # A save_to_disk folder's state.json is checked before it is read.
    saved = root / "saved"
    Dataset.from_list(sft_rows("s", 2)).save_to_disk(str(saved))
    assert checked_data_path(str(saved), [root], "path") == saved
    os.replace(saved / "state.json", outside / "state.json")
    (saved / "state.json").symlink_to(outside / "state.json")
    with pytest.raises(InvalidInputError, match="not under the platform's data roots"):
        checked_data_path(str(saved), [root], "path")


# ---- limits --------------------------------------------------------------------------------------------------


def test_the_decoded_size_limit_applies_to_arrow_files(tmp_path):
    folder = tmp_path / "saved"
    Dataset.from_list([{"prompt": "x" * 1000, "response": "y"} for _ in range(3000)]).save_to_disk(str(folder))
    limits = ReadLimits(max_decoded_bytes=2**20)
    for read in (lambda: load_table(folder, limits), lambda: next(iter_rows(folder, 1, limits))):
        with pytest.raises(DatasetFileError, match=r"decodes to \d+ bytes \(3000 rows\), over the limit of 1048576"):
            read()
    assert load_table(folder, ReadLimits(max_decoded_bytes=2**30)).num_rows == 3000


def test_a_compressed_arrow_file_is_refused_before_it_is_decoded(tmp_path):
    """A few KB of zstd that decode to 200 MB: the size is told from the file's metadata, nothing is decompressed."""
    path = tmp_path / "bomb.arrow"
    table = pa.table({"prompt": pa.array([0] * 25_000_000, pa.int64())})
    with pa.OSFile(str(path), "wb") as sink:
        with pa.ipc.new_stream(sink, table.schema, options=pa.ipc.IpcWriteOptions(compression="zstd")) as writer:
            writer.write_table(table, max_chunksize=5_000_000)
    assert path.stat().st_size < 2**20
    limits = ReadLimits(max_decoded_bytes=100 * 2**20)
    for read in (lambda: load_table(path, limits), lambda: next(iter_rows(path, 1, limits))):
        with pytest.raises(DatasetFileError, match=r"decodes to 200000000 bytes \(25000000 rows\)"):
            read()
    assert count_rows(path) == 25_000_000


def test_an_arrow_file_nested_deeper_than_json_rows_may_is_refused(tmp_path):
    nested = {"a": [{"b": [[1]]}]}  # the row, a list, a struct, two lists: five levels
    path = tmp_path / "nested.arrow"
    table = pa.Table.from_pylist([nested])
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)  # the IPC file format, beside the stream format save_to_disk writes
    assert rows_of(path, split="train") == [(1, nested)]
    with pytest.raises(DatasetFileError, match="a column nests deeper than 4 levels"):
        load_table(path, ReadLimits(max_json_depth=4))
    assert load_table(path, ReadLimits(max_json_depth=5)).num_rows == 1
