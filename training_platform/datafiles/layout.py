"""What a dataset path stands for: the files of each of its splits, in reading order, and the format they hold.

A dataset path is a file or a folder. A folder is one of:
- what Hugging Face datasets' `save_to_disk` writes: a Dataset (its .arrow files in the order its state.json lists
  them), or a DatasetDict (dataset_dict.json naming one such folder per split);
- a folder whose file or folder names name splits, as a downloaded hub repository's do
  (data/train-00000-of-00001.parquet, train.jsonl and test.jsonl, train/ and validation/...), with the split names
  Hugging Face datasets gives them;
- any other folder: its data files of one format in name order (or, when it holds none itself, every data file
  below it), as one dataset.
Splits are never read together: a folder of splits read without naming one reads its train split.

A path a request names is checked under the data roots with every file and metadata file it stands for
(`checked_data_path`).
"""

import json
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from training_platform.common.paths import checked_path
from training_platform.datafiles.depth import too_deep
from training_platform.datafiles.errors import DatasetFileError
from training_platform.datafiles.limits import DEFAULT_LIMITS

# The one list of the file types a dataset file may be: the upload help of the CLI, the API (GET
# /datasets/file-types) and the web upload dialog all show this one.
SUPPORTED_SUFFIXES = {".json": "json", ".jsonl": "jsonl", ".parquet": "parquet", ".csv": "csv", ".arrow": "arrow"}
SUPPORTED_TYPES = ", ".join(list(SUPPORTED_SUFFIXES)[:-1]) + " or " + list(SUPPORTED_SUFFIXES)[-1]
# A job's data entry that names a registered dataset instead of a file: "dataset:<name or id>".
DATASET_REFERENCE = "dataset:"


def file_format(path: Path) -> str:
    try:
        return SUPPORTED_SUFFIXES[path.suffix.lower()]
    except KeyError:
        raise DatasetFileError(f"unsupported file type '{path.suffix or path.name}'; use {SUPPORTED_TYPES}") from None


_SNIFF_BYTES = 1 << 20  # of a JSON file's first line, read to tell JSON Lines from a JSON array


def content_format(path: Path) -> str:
    """The format a data file is read as: its type (`file_format`), except that JSON and JSON Lines are told
    apart by what the file holds, as Hugging Face datasets' json loader (and so LLaMA-Factory) reads either
    under either name: a file that opens with '[' is a JSON array, one whose first line is a whole JSON object
    is JSON Lines. A first line longer than `_SNIFF_BYTES` is taken for a JSON Lines record (a pretty-printed
    document opens with a short one)."""
    kind = file_format(path)
    if kind not in ("json", "jsonl"):
        return kind
    with open(path, "rb") as handle:
        first_line = handle.readline(_SNIFF_BYTES).removeprefix(b"\xef\xbb\xbf")
        while first_line and not first_line.strip():
            first_line = handle.readline(_SNIFF_BYTES)
    opening = first_line.lstrip()[:1]
    if opening == b"[":
        return "json"
    if opening != b"{":
        return kind
    if len(first_line) >= _SNIFF_BYTES and not first_line.endswith(b"\n"):
        return "jsonl"
    if too_deep(first_line, DEFAULT_LIMITS.max_json_depth):
        return "jsonl"  # its reader names the line
    try:
        return "jsonl" if isinstance(json.loads(first_line), dict) else kind
    except (UnicodeDecodeError, json.JSONDecodeError):
        return kind


# The words Hugging Face datasets reads a split from in a file's or a folder's name, and the split each names.
_SPLIT_WORDS = {
    "train": "train",
    "training": "train",
    "validation": "validation",
    "valid": "validation",
    "val": "validation",
    "dev": "validation",
    "test": "test",
    "testing": "test",
    "eval": "test",
    "evaluation": "test",
}
# A word counts between separators, or at either end of the name: train.jsonl, my_valid_set, test-2/, not contest.
_SPLIT_WORD = re.compile(rf"(?:^|[-._ 0-9])({'|'.join(sorted(_SPLIT_WORDS, key=len, reverse=True))})(?=[-._ 0-9]|$)")
# A hub repository's shards name their split whatever it is: data/<split>-00000-of-00002.parquet.
_SHARD = re.compile(r"data/(\w+(?:\.\w+)*)-[0-9]{5}-of-[0-9]{5}[^/]*\.[^/]*")
# Files Hugging Face datasets never reads as data, and the metadata save_to_disk writes beside its .arrow files.
_NOT_DATA = {"config.json", "dataset_info.json", "dataset_infos.json", "dataset_dict.json", "state.json"}
_MAX_ENTRIES = 100_000  # files and folders looked at below a folder for its data files
_MAX_METADATA_BYTES = 1 << 24
_SPLIT_ORDER = ("train", "validation", "test")


def split_name(name: str) -> str:
    """The name a split is known by: "valid", "val" and "dev" name the validation split."""
    return "validation" if name in ("valid", "val", "dev") else name


def dataset_splits(path: Path) -> dict[str, list[Path]]:
    """Each split of a dataset path with its files, in reading order: train, validation and test first. A file, or
    a folder of no splits, is its own train split."""
    return _layout(path)[0]


def data_files(path: Path, *, split: str | None = None) -> list[Path]:
    """The files of one split of a dataset path (None: its train split, the whole dataset of a file or a folder of
    no splits)."""
    splits = dataset_splits(path)
    wanted = "train" if split is None else split_name(split)
    if wanted in splits:
        return splits[wanted]
    if split is None:
        raise DatasetFileError(f"{path} has no train split to read by default; name one of: {', '.join(splits)}")
    raise DatasetFileError(f"{path} has no split '{split}'; its splits: {', '.join(splits)}")


def _layout(
    path: Path, before_reading: Callable[[Path], None] | None = None
) -> tuple[dict[str, list[Path]], list[Path]]:
    """The splits of `path`, and the metadata files that told them (each passed to `before_reading` first)."""
    check = before_reading or (lambda _file: None)
    if not path.is_dir():
        file_format(path)
        if not path.is_file():
            raise DatasetFileError(f"{path} does not exist or is not a file")
        return {"train": [path]}, []
    if (path / "dataset_dict.json").is_file():
        return _saved_dataset_dict(path, check)
    if (path / "state.json").is_file():
        return {"train": _saved_dataset(path, check)}, [path / "state.json"]
    return _named_splits(path), []


def _saved_dataset_dict(path: Path, before_reading: Callable[[Path], None]) -> tuple[dict[str, list[Path]], list[Path]]:
    metadata = [path / "dataset_dict.json"]
    names = _metadata(metadata[0], before_reading).get("splits")
    if not isinstance(names, list) or not names or not all(_plain_name(name) for name in names):
        raise DatasetFileError(f"{path / 'dataset_dict.json'} must list the folders of the splits under 'splits'")
    splits: dict[str, list[Path]] = {}
    for name in names:
        if split_name(name) in splits:
            raise DatasetFileError(f"{path / 'dataset_dict.json'} names the split '{split_name(name)}' twice")
        splits[split_name(name)] = _saved_dataset(path / name, before_reading)
        metadata.append(path / name / "state.json")
    return _in_split_order(splits), metadata


def _saved_dataset(folder: Path, before_reading: Callable[[Path], None]) -> list[Path]:
    """A save_to_disk folder's .arrow files, in the order of its state.json (dataset_info.json describes them)."""
    state = folder / "state.json"
    if not state.is_file():
        raise DatasetFileError(f"{folder} holds no state.json: it is not a folder save_to_disk wrote")
    entries = _metadata(state, before_reading).get("_data_files")
    names = [entry.get("filename") for entry in entries if isinstance(entry, dict)] if isinstance(entries, list) else []
    if not names or not all(_plain_name(name) and name.endswith(".arrow") for name in names):
        raise DatasetFileError(f"{state} must list the folder's .arrow files under '_data_files'")
    files = [folder / name for name in names]
    if missing := [file.name for file in files if not file.is_file()]:
        raise DatasetFileError(f"{state} lists {', '.join(missing)}, missing from {folder}")
    return files


def _metadata(file: Path, before_reading: Callable[[Path], None]) -> dict:
    before_reading(file)
    if file.stat().st_size > _MAX_METADATA_BYTES:
        raise DatasetFileError(f"{file} is larger than {_MAX_METADATA_BYTES} bytes: it is not save_to_disk's")
    raw = file.read_bytes()
    try:
        value = None if too_deep(raw, DEFAULT_LIMITS.max_json_depth) else json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        value = None
    if not isinstance(value, dict):
        raise DatasetFileError(f"{file} is not a JSON object")
    return value


def _plain_name(name: Any) -> bool:
    """A name that stays in its folder (metadata names files and folders: none may lead out)."""
    return isinstance(name, str) and name not in ("", ".", "..") and "/" not in name and "\\" not in name


def _named_splits(folder: Path) -> dict[str, list[Path]]:
    names = _data_file_names(folder)
    if not names:
        raise DatasetFileError(f"directory {folder} holds no {SUPPORTED_TYPES} file")
    splits = (
        _shard_splits(folder, names)
        or _word_splits(folder, names, in_folders=True)
        or _word_splits(folder, names, in_folders=False)
    )
    if not splits:
        # No split is named: the folder is one dataset, its own files (or, if it has none, every one below it).
        splits = {"train": [name for name in names if "/" not in name] or names}
    for split, files in splits.items():
        formats = {file_format(Path(name)) for name in files}
        if len(formats) > 1:
            where = f"directory {folder}" if list(splits) == ["train"] else f"split '{split}' of {folder}"
            raise DatasetFileError(f"{where} mixes formats ({', '.join(sorted(formats))}); use one format")
    return {split: [folder / name for name in files] for split, files in _in_split_order(splits).items()}


def _data_file_names(folder: Path) -> list[str]:
    """Every data file below `folder`, as a path relative to it in name order; hidden files and folders, and
    Hugging Face's metadata, are left out."""
    names, seen = [], 0
    for root, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith((".", "__"))]
        seen += len(folders) + len(files)
        if seen > _MAX_ENTRIES:
            raise DatasetFileError(f"directory {folder} holds more than {_MAX_ENTRIES} files and folders")
        for name in files:
            file = Path(root, name)
            if (
                not name.startswith((".", "__"))
                and name not in _NOT_DATA
                and file.suffix.lower() in SUPPORTED_SUFFIXES
                and file.is_file()
            ):
                names.append(file.relative_to(folder).as_posix())
    return sorted(names)


def _shard_splits(folder: Path, names: list[str]) -> dict[str, list[str]]:
    shards = {name: match[1] for name in names if (match := _SHARD.fullmatch(name))}
    if not shards:
        return {}
    _refuse_strays(folder, names, shards)
    splits: dict[str, list[str]] = {}
    for name, split in shards.items():
        splits.setdefault(split, []).append(name)
    if len({split_name(split) for split in splits}) < len(splits):
        raise DatasetFileError(f"directory {folder} has shards of two validation splits: {', '.join(splits)}")
    return {split_name(split): files for split, files in splits.items()}


def _word_splits(folder: Path, names: list[str], in_folders: bool) -> dict[str, list[str]]:
    """Splits named by a word of a file's folders or of its own name, as Hugging Face datasets tries them."""
    found = {}
    for name in names:
        parts = name.split("/")[:-1] if in_folders else [name.rsplit("/", 1)[-1]]
        splits = {_SPLIT_WORDS[word] for part in parts for word in _SPLIT_WORD.findall(part)}
        if len(splits) > 1:
            raise DatasetFileError(f"{folder / name} is named for two splits ({', '.join(sorted(splits))})")
        if splits:
            found[name] = splits.pop()
    if not found:
        return {}
    _refuse_strays(folder, names, found)
    splits: dict[str, list[str]] = {}
    for name, split in found.items():
        splits.setdefault(split, []).append(name)
    return splits


def _refuse_strays(folder: Path, names: list[str], placed: dict[str, str]) -> None:
    """Files beside a folder's splits that belong to none of them are refused, not dropped or guessed at."""
    if strays := [name for name in names if name not in placed]:
        shown = ", ".join(strays[:5]) + (f" and {len(strays) - 5} more" if len(strays) > 5 else "")
        raise DatasetFileError(
            f"directory {folder} has splits ({', '.join(sorted(set(placed.values())))}), but {shown} belongs to "
            f"none: name each data file or its folder for its split (train, validation, test)"
        )


def _in_split_order(splits: dict[str, list]) -> dict[str, list]:
    order = [name for name in _SPLIT_ORDER if name in splits] + sorted(set(splits) - set(_SPLIT_ORDER))
    return {name: splits[name] for name in order}


def checked_data_path(value: str, roots: Sequence[Path], field: str) -> Path:
    """A data path a request names, under the data roots (common/paths.py), and so is every file a directory
    stands for, in every split, and every metadata file that says which they are (before it is read): a link
    among them may point anywhere."""
    path = checked_path(value, roots, field)

    def inside(file: Path) -> None:
        checked_path(file, roots, field)

    if path.is_dir():
        try:
            splits, metadata = _layout(path, inside)
        except DatasetFileError:
            return path  # the read that follows says what is wrong with it
        for file in [*metadata, *(file for files in splits.values() for file in files)]:
            inside(file)
    return path


def dataset_format(path: Path, *, split: str | None = None) -> str:
    """The format a dataset's files are read as (a JSON Lines file named .json is "jsonl")."""
    return content_format(data_files(path, split=split)[0])
