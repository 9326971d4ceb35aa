"""Bring a LLaMA-Factory project: its data/dataset_info.json read, and each dataset it describes planned as the
platform's registration of the same file read the same way, or the reason it is not.

LLaMA-Factory describes each dataset by name (its own data README and its parser's `DatasetAttr`; docs/datasets.md):
where it comes from (a hub repository, a loading script, a cloud file, or `file_name` in the folder of the json), its
`formatting` (alpaca, sharegpt or openai), whether it is `ranking` (preference) data, and the `columns` and sharegpt
`tags` it is read with. The platform's presets read those columns and tags in LLaMA-Factory's own vocabulary
(datafiles/presets.py), so a local entry becomes a registration (schemas.py DatasetRegister) of:
- kind dpo when `ranking`, else sft;
- preset alpaca, sharegpt, or sharegpt-preference when ranking; openai for openai-formatted chats whose tags are
  OpenAI's role names (the platform's openai preset also reads their tool calls);
- the `columns` the entry's formatting reads as the field mapping, and the `tags` as the sharegpt tags.
Given `columns`, LLaMA-Factory reads only the columns named there (an alpaca entry naming no `response` is its
pre-training text); without them, its defaults, which are the presets' own column names.

What the platform cannot train as the entry means is skipped with the reason, never registered another way: hub,
script and cloud datasets (the platform registers files on its own disk), media columns, `kto_tag`, pre-training
text, a folder (LLaMA-Factory reads every file in it as one dataset, the platform reads a folder by its splits), a
column the platform's preset does not read. A key LLaMA-Factory does not know, or one it does not apply to a local
file, is reported in the entry's notes. The rows themselves are checked by registration, as any registration's.

The json is bounded (`MAX_INFO_BYTES`, the JSON depth of the read limits, `MAX_ENTRIES`) and read only under the
data roots; a `file_name` is a path inside the json's folder, never outside it.
"""

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from training_platform.common.paths import OUTSIDE_ROOTS, checked_path, under_roots
from training_platform.contract.data import MAX_FIELD_PATH, PresetName
from training_platform.datafiles.depth import too_deep
from training_platform.datafiles.limits import ReadLimits
from training_platform.datafiles.meaning import MEDIA_COLUMNS, MULTIMODAL
from training_platform.datafiles.presets import format_reads_key
from training_platform.datasets.schemas import DatasetRegister, ImportedEntry
from training_platform.errors import FieldError, InvalidInputError, field_errors_from_pydantic

INFO_FILE = "dataset_info.json"  # LLaMA-Factory's DATA_CONFIG, in its dataset_dir
MAX_INFO_BYTES = 1 << 20  # LLaMA-Factory's own file, of some hundred entries, is 20 KB
MAX_ENTRIES = 500  # registered in one request, each file read and checked
_SHOWN = 200  # characters of a name or key shown in a result

Column = Annotated[StrictStr, Field(min_length=1, max_length=MAX_FIELD_PATH)]
Text = Annotated[StrictStr, Field(max_length=4096)]
FileName = Annotated[StrictStr, Field(min_length=1, max_length=4096)]


class LlamaFactoryColumns(BaseModel):
    """An entry's `columns`: which column of the file holds what (null: none does)."""

    model_config = ConfigDict(extra="allow")

    prompt: Column | None = None
    query: Column | None = None
    response: Column | None = None
    history: Column | None = None
    messages: Column | None = None
    system: Column | None = None
    tools: Column | None = None
    images: Column | None = None
    videos: Column | None = None
    audios: Column | None = None
    chosen: Column | None = None
    rejected: Column | None = None
    kto_tag: Column | None = None


class LlamaFactoryTags(BaseModel):
    """An entry's sharegpt `tags`: the keys of a turn and the role each tag stands for."""

    model_config = ConfigDict(extra="allow")

    role_tag: Text | None = None
    content_tag: Text | None = None
    user_tag: Text | None = None
    assistant_tag: Text | None = None
    observation_tag: Text | None = None
    function_tag: Text | None = None
    system_tag: Text | None = None


class LlamaFactoryEntry(BaseModel):
    """One dataset of a dataset_info.json, with LLaMA-Factory's defaults. Strict: LLaMA-Factory reads `"ranking":
    "false"` as true (a non-empty string), so only JSON's own booleans and numbers are taken."""

    model_config = ConfigDict(extra="allow")

    hf_hub_url: Text | None = None
    ms_hub_url: Text | None = None
    om_hub_url: Text | None = None
    script_url: Text | None = None
    cloud_file_name: Text | None = None
    file_name: FileName | None = None
    formatting: Literal["alpaca", "sharegpt", "openai"] = "alpaca"
    ranking: StrictBool = False
    subset: Text | None = None
    split: Text = "train"
    folder: Text | None = None
    num_samples: Annotated[StrictInt, Field(ge=1)] | None = None
    columns: LlamaFactoryColumns | None = None
    tags: LlamaFactoryTags | None = None


# Where a hub entry's data lives, in the order LLaMA-Factory picks among them (parser.py get_dataset_list).
_HUBS = (("hf_hub_url", "the Hugging Face hub"), ("ms_hub_url", "ModelScope"), ("om_hub_url", "Modelers"))
# The columns LLaMA-Factory's converters read, by formatting (openai reads as sharegpt) and ranking (converter.py).
_READ: dict[tuple[str, bool], tuple[str, ...]] = {
    ("alpaca", False): ("prompt", "query", "response", "history", "system", "tools"),
    ("alpaca", True): ("prompt", "query", "chosen", "rejected", "history", "system", "tools"),
    ("sharegpt", False): ("messages", "system", "tools"),
    ("sharegpt", True): ("messages", "chosen", "rejected", "system", "tools"),
}
# The tags of an openai-formatted entry whose chats are OpenAI's messages (LLaMA-Factory's data/README.md).
_OPENAI_TAGS = {"role_tag": "role", "content_tag": "content", "user_tag": "user", "assistant_tag": "assistant"}


class _JsonObject(dict):
    """A JSON object that remembers the keys it was given more than once: `json` keeps the last, as LLaMA-Factory's
    json.load does, and the import says so."""

    def __init__(self, pairs: list[tuple[str, Any]]):
        super().__init__(pairs)
        self.repeated = [key for key, count in Counter(key for key, _ in pairs).items() if count > 1]


@dataclass(frozen=True)
class PlannedEntry:
    """An entry as the platform would register it (`request`, with the result it would have), or what became of
    it already (skipped, failed)."""

    result: ImportedEntry
    request: DatasetRegister | None = None


def info_path(value: str, roots: list[Path]) -> Path:
    """The dataset_info.json a request names (a folder stands for its dataset_info.json), under the data roots."""
    path = checked_path(value, roots, "path")
    if path.is_dir():
        path = checked_path(path / INFO_FILE, roots, "path")
    if not path.is_file():
        raise InvalidInputError([FieldError("path", f"{path} is not a file")])
    return path


def read_dataset_info(path: Path, limits: ReadLimits) -> dict[str, Any]:
    """The entries of a dataset_info.json by name; refused whole (a 422 on `path`) when it cannot be read as one."""

    def refused(problem: str) -> InvalidInputError:
        return InvalidInputError([FieldError("path", f"{path.name} {problem}")])

    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_INFO_BYTES + 1)
    except OSError as error:
        raise refused(f"cannot be read: {error.strerror}") from None
    if len(data) > MAX_INFO_BYTES:
        raise refused(f"is larger than {MAX_INFO_BYTES // 2**20} MiB")
    if too_deep(data, limits.max_json_depth):
        raise refused(limits.too_deep_message())
    try:
        info = json.loads(data.removeprefix(b"\xef\xbb\xbf").decode(), object_pairs_hook=_JsonObject)
    except UnicodeDecodeError as error:
        raise refused(f"is not UTF-8 text (byte {error.start + 1})") from None
    except json.JSONDecodeError as error:
        raise refused(f"is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})") from None
    if not isinstance(info, dict):
        raise refused(f"must be a JSON object of dataset descriptions by name, not a {type(info).__name__}")
    if not info:
        raise refused("describes no dataset")
    if len(info) > MAX_ENTRIES:
        raise refused(f"describes {len(info)} datasets; at most {MAX_ENTRIES} are imported at once")
    return info


def plan_import(path: Path, info: dict[str, Any], prefix: str, roots: list[Path]) -> list[PlannedEntry]:
    """Each entry of the json at `path`, in the file's order, planned on its own: one bad entry stops no other."""
    repeated = set(getattr(info, "repeated", []))
    return [plan_entry(name, raw, path, prefix, roots, name in repeated) for name, raw in info.items()]


def plan_entry(name: str, raw: Any, path: Path, prefix: str, roots: list[Path], repeated: bool) -> PlannedEntry:
    shown = _shown(name)
    notes = []
    if repeated:
        notes.append(f"'{shown}' is described more than once: the last description is read, as LLaMA-Factory does")
    notes += [f"key '{_shown(key)}' is given more than once: the last is read" for key in getattr(raw, "repeated", [])]

    def skipped(reason: str) -> PlannedEntry:
        return PlannedEntry(ImportedEntry(entry=shown, outcome="skipped", reason=reason, notes=notes))

    def failed(reason: str) -> PlannedEntry:
        return PlannedEntry(ImportedEntry(entry=shown, outcome="failed", reason=reason, notes=notes))

    try:
        entry = LlamaFactoryEntry.model_validate(raw)
    except ValidationError as error:
        return failed(_errors(error))
    notes += _unknown_keys(entry)
    if remote := _remote(entry):
        return skipped(remote)
    if entry.file_name is None:
        return failed(f"names no file_name (nor {', '.join(key for key, _ in _HUBS)}, script_url, cloud_file_name)")
    if meaning := _not_trained(entry):
        return skipped(meaning)
    file, problem = _local_file(entry.file_name, path.parent, roots)
    if problem:
        return failed(problem)
    if file.is_dir():
        return skipped(
            "a folder: LLaMA-Factory reads every file in it as one dataset, the platform reads a folder by its "
            "splits; register its files with `tplat datasets register`"
        )
    if file.suffix.lower() == ".txt":
        return skipped("a text file: LLaMA-Factory's pre-training text, which the platform does not train")
    notes += _not_applied(entry)
    kind = "dpo" if entry.ranking else "sft"
    preset = _preset(entry)
    mapping = _field_mapping(entry, notes)
    if unread := [key for key in mapping if not format_reads_key(preset, key, kind)]:
        return skipped(
            f"columns.{unread[0]}: the platform's {preset} preset reads no such column of {kind} datasets, so the "
            "rows would train without it"
        )
    try:
        request = DatasetRegister(
            name=f"{prefix}{name}",
            path=str(file),
            kind=kind,
            preset=preset,
            field_mapping=mapping,
            tags=_tags(entry, preset),
            split=None if entry.split == "train" else entry.split,
            description=f"LLaMA-Factory dataset '{shown}' of {path}",
        )
    except ValidationError as error:
        return failed(_errors(error))
    planned = ImportedEntry(
        entry=shown,
        outcome="would_register",
        dataset=request.name,
        kind=kind,
        preset=preset,
        path=str(file),
        notes=notes,
    )
    return PlannedEntry(planned, request)


def _shown(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _errors(error: ValidationError) -> str:
    return "; ".join(str(field) for field in field_errors_from_pydantic(error))


def _unknown_keys(entry: LlamaFactoryEntry) -> list[str]:
    """Keys LLaMA-Factory does not read either: said, not dropped without a word (a misspelt `colums` is no
    mapping)."""
    found = [("", entry), ("columns.", entry.columns), ("tags.", entry.tags)]
    return [
        f"unknown key '{where}{_shown(key)}' is not read (by LLaMA-Factory either)"
        for where, part in found
        if part is not None
        for key in part.model_extra or {}
    ]


def _remote(entry: LlamaFactoryEntry) -> str | None:
    """Why a dataset that is not a local file is not imported, in LLaMA-Factory's order of the places."""
    hubs = [f"{where} ({getattr(entry, key)})" for key, where in _HUBS if getattr(entry, key) is not None]
    if hubs:
        return (
            f"on {_listed(hubs)}: the platform registers files on its own disk; download the dataset and "
            "register its files"
        )
    if entry.script_url is not None:
        return f"a dataset loading script ({entry.script_url}): the platform runs no dataset loading code"
    if entry.cloud_file_name is not None:
        return f"a file in cloud storage ({entry.cloud_file_name}): the platform registers files on its own disk"
    return None


def _listed(items: list[str]) -> str:
    return " and ".join(filter(None, [", ".join(items[:-1]), items[-1]]))


def _not_trained(entry: LlamaFactoryEntry) -> str | None:
    """Why the platform cannot train the entry as LLaMA-Factory means it (datafiles/meaning.py)."""
    columns = entry.columns
    if columns is None:
        return None
    if media := [name for name in MEDIA_COLUMNS if getattr(columns, name) is not None]:
        return f"columns {', '.join(media)}: {MULTIMODAL}"
    if columns.kto_tag is not None:
        return (
            "columns.kto_tag: KTO-style unpaired preference data (a true/false label per answer), which the platform "
            "does not train"
        )
    if entry.formatting == "alpaca" and not entry.ranking and columns.response is None:
        return "columns name no response: LLaMA-Factory's pre-training text, which the platform does not train"
    return None


def _local_file(file_name: str, folder: Path, roots: list[Path]) -> tuple[Path, str | None]:
    """`file_name` resolved in the json's folder, or why it cannot be read: outside that folder (an absolute path,
    `..`, a link that points away) or the data roots, or missing."""
    if "\0" in file_name:
        return folder, "file_name holds a NUL character"
    try:
        file = (folder / file_name).resolve()
    except (OSError, RuntimeError) as error:
        return folder, f"file_name '{_shown(file_name)}' cannot be resolved: {error}"
    if not file.is_relative_to(folder):
        return file, f"file_name '{_shown(file_name)}' is outside the folder of {INFO_FILE} ({folder})"
    if under_roots(file, roots) is None:
        return file, f"file_name '{_shown(file_name)}' is {OUTSIDE_ROOTS}"
    if not file.exists():
        return file, f"file_name '{_shown(file_name)}': no such file in {folder}"
    return file, None


def _not_applied(entry: LlamaFactoryEntry) -> list[str]:
    """What LLaMA-Factory does not apply to a local file either, or the platform applies at training time."""
    notes = [
        f"{key} '{_shown(getattr(entry, key))}' is not read: LLaMA-Factory applies it to hub datasets only"
        for key in ("subset", "folder")
        if getattr(entry, key) is not None
    ]
    if entry.num_samples is not None:
        notes.append(
            f"num_samples {entry.num_samples} (LLaMA-Factory's sampling when it trains) is not applied: the dataset "
            "holds every row"
        )
    if entry.tags is not None and entry.formatting == "alpaca":
        notes.append("tags are not read: they are the turns' keys of sharegpt data")
    return notes


def _preset(entry: LlamaFactoryEntry) -> PresetName:
    if entry.formatting == "alpaca":
        return "alpaca"
    if entry.ranking:
        return "sharegpt-preference"
    if entry.formatting == "openai" and entry.tags is not None and _openai_roles(entry.tags):
        return "openai"
    return "sharegpt"


def _openai_roles(tags: LlamaFactoryTags) -> bool:
    named = tags.model_dump(include=set(LlamaFactoryTags.model_fields))
    return all(named[key] == value for key, value in _OPENAI_TAGS.items()) and named["system_tag"] in (None, "system")


def _field_mapping(entry: LlamaFactoryEntry, notes: list[str]) -> dict[str, str]:
    """The named columns the entry's formatting reads, as a field mapping in LLaMA-Factory's keys (the presets'
    aliases); those it does not read are said in `notes`."""
    if entry.columns is None:
        return {}
    formatting = "alpaca" if entry.formatting == "alpaca" else "sharegpt"
    read = _READ[(formatting, entry.ranking)]
    named = {
        key: value
        for key, value in entry.columns.model_dump(include=set(LlamaFactoryColumns.model_fields)).items()
        if value is not None and key not in MEDIA_COLUMNS and key != "kto_tag"
    }
    what = f"{entry.formatting} {'ranking' if entry.ranking else 'supervised'} data"
    notes += [f"columns.{key} is not read: LLaMA-Factory reads no {key} of {what}" for key in named if key not in read]
    return {key: value for key, value in named.items() if key in read}


def _tags(entry: LlamaFactoryEntry, preset: str) -> dict[str, str]:
    """The sharegpt tags the entry names (ShareGptTags holds LLaMA-Factory's defaults for the others, and checks
    them as DatasetRegister's `tags`); the openai preset reads OpenAI's roles and needs none."""
    if entry.tags is None or preset not in ("sharegpt", "sharegpt-preference"):
        return {}
    return entry.tags.model_dump(include=set(LlamaFactoryTags.model_fields), exclude_none=True)
