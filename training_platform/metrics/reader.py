"""Incremental reading of a metrics file, by byte offset, in the platform's format or verl's.

- A partial last line is left for the next read, so a line is parsed exactly once, when complete.
- The first line's hash identifies the file: if it changes, or the file shrinks below the offset, the
  file was truncated and rewritten (verl truncates its file when a run resumes) and reading restarts at
  byte 0. Upserts keyed by (job, step, key) make re-reading harmless.
- A line that cannot be parsed is counted and reported with its line number; reading goes on.
- NaN and Infinity are kept. verl writes with orjson, which turns them into null: null reads as NaN.
- verl's console lines (`step:N - key:value - ...`, possibly behind a Ray actor's prefix) are read too,
  for runs started outside the platform whose only record is their output.

Where the bytes come from is a `MetricsSource`: a local file here; the SSH runner provides a remote one.
"""

import hashlib
import json
import math
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from training_platform.contract.metrics import as_number, canonicalize, from_grouped
from training_platform.engines.verl.keys import VERL_KEYS

MAX_READ_BYTES = 8 * 1024 * 1024
FINGERPRINT_LIMIT = 4096


class MetricsSource(ABC):
    """The bytes of one metrics file, wherever it is."""

    name: str  # identifies the source in the ingest cursor (an absolute path, a host:path, ...)

    @abstractmethod
    def size(self) -> int | None:
        """Current size in bytes, or None when the file does not exist (yet)."""

    @abstractmethod
    def read(self, offset: int, length: int) -> bytes:
        """Up to `length` bytes from `offset`."""


class LocalFileSource(MetricsSource):
    def __init__(self, path: Path):
        self.path = path.resolve()
        self.name = str(self.path)

    def size(self) -> int | None:
        try:
            return self.path.stat().st_size
        except FileNotFoundError:
            return None

    def read(self, offset: int, length: int) -> bytes:
        with open(self.path, "rb") as handle:
            handle.seek(offset)
            return handle.read(length)


@dataclass(frozen=True)
class Cursor:
    offset: int = 0
    line_number: int = 0  # complete lines consumed
    fingerprint: str | None = None  # sha1 of the first line
    fingerprint_length: int = 0
    malformed_lines: int = 0  # since the file was first read, across rewrites


@dataclass(frozen=True)
class StepRecord:
    step: int
    values: dict[str, float]
    line_number: int
    anomaly: tuple[str, str] | None = None  # (kind, message) flagged by the training side


@dataclass(frozen=True)
class MalformedLine:
    line_number: int
    reason: str


@dataclass
class ReadBatch:
    records: list[StepRecord] = field(default_factory=list)
    malformed: list[MalformedLine] = field(default_factory=list)
    bytes_read: int = 0


def _verl_number(value: Any) -> float | None:
    return math.nan if value is None else as_number(value)


def parse_record(obj: Any, line_number: int) -> StepRecord:
    """One decoded line → a StepRecord; ValueError says why a line is not one."""
    if not isinstance(obj, Mapping):
        raise ValueError("not a JSON object")
    step = obj.get("step")
    if isinstance(step, bool) or not isinstance(step, int) or step < 0:
        raise ValueError(f"'step' must be a non-negative integer, got {step!r}")
    if "data" in obj:  # verl's file logger: {"step": N, "data": {...}}
        data = obj["data"]
        if not isinstance(data, Mapping):
            raise ValueError("'data' must be an object")
        numbers = {key: n for key, value in data.items() if (n := _verl_number(value)) is not None}
        return StepRecord(step=step, values=canonicalize(numbers, VERL_KEYS), line_number=line_number)
    values = from_grouped(obj)
    timestamp = as_number(obj.get("timestamp"))
    if timestamp is not None:
        values["timestamp"] = timestamp
    anomaly = obj.get("anomaly")
    flagged = None
    if isinstance(anomaly, Mapping):
        flagged = (str(anomaly.get("type", "anomaly")), str(anomaly.get("message", "")))
    return StepRecord(step=step, values=values, line_number=line_number, anomaly=flagged)


_CONSOLE_LINE = re.compile(r"step:(\d+)((?: - [^:\s][^:]*:\S+)*)\s*$")


def parse_console_line(text: str, line_number: int) -> StepRecord | None:
    """verl's console format (aggregate_logger.concat_dict_to_str); None if the line is not one."""
    match = _CONSOLE_LINE.search(text)
    if match is None:
        return None
    data = {}
    for part in match.group(2).split(" - ")[1:]:
        key, _, value = part.rpartition(":")
        try:
            data[key] = float(value)
        except ValueError:
            continue
    return StepRecord(step=int(match.group(1)), values=canonicalize(data, VERL_KEYS), line_number=line_number)


def _parse_line(raw: bytes, line_number: int) -> StepRecord | MalformedLine:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return MalformedLine(line_number, "not valid UTF-8")
    try:
        # Python's JSON reader accepts NaN/Infinity, which the platform's writer emits on purpose.
        return parse_record(json.loads(text), line_number)
    except json.JSONDecodeError as error:
        console = parse_console_line(text, line_number)
        return console or MalformedLine(line_number, f"invalid JSON: {error.msg} at column {error.colno}")
    except ValueError as error:
        return MalformedLine(line_number, str(error))


class MetricsReader:
    def __init__(self, source: MetricsSource, cursor: Cursor | None = None):
        self.source = source
        self.cursor = cursor or Cursor()

    def was_rewritten(self) -> bool:
        """True if the file no longer continues what the cursor has read (truncated or replaced)."""
        if self.cursor.offset == 0:
            return False
        size = self.source.size()
        if size is None or size < self.cursor.offset:
            return True
        head = self.source.read(0, self.cursor.fingerprint_length)
        return hashlib.sha1(head).hexdigest() != self.cursor.fingerprint

    def restart(self) -> None:
        self.cursor = Cursor(malformed_lines=self.cursor.malformed_lines)

    def read(self, max_bytes: int = MAX_READ_BYTES) -> ReadBatch:
        """Parse the complete lines added since the cursor (up to about `max_bytes`) and advance it."""
        batch = ReadBatch()
        size = self.source.size()
        if size is None or size <= self.cursor.offset:
            return batch
        data = self.source.read(self.cursor.offset, min(size - self.cursor.offset, max_bytes))
        end = data.rfind(b"\n") + 1
        if end == 0:
            if len(data) < max_bytes:
                return batch  # a partial line: wait for the rest
            end = len(data)  # a single line longer than max_bytes: report it rather than stall
        cursor = self.cursor
        if cursor.offset == 0:
            first_line_end = data.find(b"\n", 0, FINGERPRINT_LIMIT) + 1 or min(end, FINGERPRINT_LIMIT)
            cursor = replace(
                cursor, fingerprint=hashlib.sha1(data[:first_line_end]).hexdigest(), fingerprint_length=first_line_end
            )
        line_number = cursor.line_number
        lines = data[:end].split(b"\n")
        if lines[-1] == b"":
            lines.pop()  # what follows the last newline
        for raw in lines:
            line_number += 1
            if not raw.strip():
                continue
            parsed = _parse_line(raw, line_number)
            if isinstance(parsed, MalformedLine):
                batch.malformed.append(parsed)
            else:
                batch.records.append(parsed)
        self.cursor = replace(
            cursor,
            offset=cursor.offset + end,
            line_number=line_number,
            malformed_lines=cursor.malformed_lines + len(batch.malformed),
        )
        batch.bytes_read = end
        return batch
