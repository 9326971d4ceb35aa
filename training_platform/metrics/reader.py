"""Incremental reading of a metrics file, by byte offset, in the platform's format or verl's.

- A partial last line is left for the next read, so a line is parsed exactly once, when complete.
- The first line's hash identifies the file: if it changes, or the file shrinks below the offset, the
  file was truncated and rewritten (verl truncates its file when a run resumes) and reading restarts at
  byte 0. Upserts keyed by (job, step, key) make re-reading harmless.
- A line that cannot be parsed is counted and reported with its line number; reading goes on, whatever the line
  holds (a number of 400 digits, deep nesting, a step beyond 64 bits, bytes that are not UTF-8, megabytes).
- NaN and Infinity are kept. verl writes with orjson, which turns them into null: null reads as NaN.
- verl's console lines (`step:N - key:value - ...`, possibly behind a Ray actor's prefix) are read too,
  for runs started outside the platform whose only record is their output.

Where the bytes come from is a `MetricsSource`: a local file here; the SSH runner provides a remote one.
"""

import hashlib
import json
import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from training_platform.contract.metrics import MAX_STEP, as_number, canonicalize, from_grouped
from training_platform.engines.verl.keys import VERL_KEYS

MAX_READ_BYTES = 8 * 1024 * 1024
FINGERPRINT_LIMIT = 4096
# What one line may hold. verl logs a few hundred keys per step, a line of some kilobytes; these bound what a
# broken or hostile writer costs (the store keeps keys of up to 255 characters).
MAX_LINE_BYTES = 1024 * 1024
MAX_KEYS_PER_LINE = 10_000
MAX_KEY_LENGTH = 255
MAX_MESSAGE_LENGTH = 4096


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


def _checked_step(step: Any) -> int:
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= MAX_STEP:
        shown = repr(step) if not isinstance(step, int) or abs(step) < 10**30 else "an integer of over 30 digits"
        raise ValueError(f"'step' must be an integer from 0 to 2**62, got {shown[:80]}")
    return step


def _checked_values(values: dict[str, float]) -> dict[str, float]:
    """The values of a record, if the store can keep every key; ValueError names the first it cannot."""
    if len(values) > MAX_KEYS_PER_LINE:
        raise ValueError(f"{len(values)} values in one line (at most {MAX_KEYS_PER_LINE})")
    for key in values:
        if len(key) > MAX_KEY_LENGTH:
            raise ValueError(f"a key longer than {MAX_KEY_LENGTH} characters ({key[:40]!r}...)")
        if "\x00" in key or not _encodable(key):
            raise ValueError(f"a key with a NUL or an unpaired surrogate ({key[:40]!r})")
    return values


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def _text(value: Any, limit: int) -> str:
    """A string the database takes (no NUL, valid UTF-8), at most `limit` characters."""
    text = value if isinstance(value, str) else json.dumps(value)  # json.dumps: never a Python repr of a big int
    text = text[:limit].replace("\x00", "")
    return text.encode("utf-8", errors="replace").decode("utf-8")


def parse_record(obj: Any, line_number: int) -> StepRecord:
    """One decoded line → a StepRecord; ValueError says why a line is not one."""
    if not isinstance(obj, Mapping):
        raise ValueError("not a JSON object")
    step = _checked_step(obj.get("step"))
    if "data" in obj:  # verl's file logger: {"step": N, "data": {...}}
        data = obj["data"]
        if not isinstance(data, Mapping):
            raise ValueError("'data' must be an object")
        numbers = {key: n for key, value in data.items() if (n := _verl_number(value)) is not None}
        values = _checked_values(canonicalize(numbers, VERL_KEYS))
        return StepRecord(step=step, values=values, line_number=line_number)
    values = from_grouped(obj)
    timestamp = as_number(obj.get("timestamp"))
    if timestamp is not None:
        values["timestamp"] = timestamp
    anomaly = obj.get("anomaly")
    flagged = None
    if isinstance(anomaly, Mapping):
        flagged = (_text(anomaly.get("type", "anomaly"), 64), _text(anomaly.get("message", ""), MAX_MESSAGE_LENGTH))
    return StepRecord(step=step, values=_checked_values(values), line_number=line_number, anomaly=flagged)


def parse_console_line(text: str, line_number: int) -> StepRecord | None:
    """verl's console format (aggregate_logger.concat_dict_to_str: `step:N - key:value - ...`, possibly behind a
    Ray actor's prefix); None if the line is not one, ValueError if its step is out of range.

    One pass over the line's parts, in linear time: a regular expression for this format backtracked
    quadratically on lines that almost match (a 50 KB line took seconds)."""
    parts = text.rstrip().split(" - ")
    first_pair = len(parts)  # parts[first_pair:] are all `key:value`
    while first_pair > 0 and _is_pair(parts[first_pair - 1]):
        first_pair -= 1
    # The step ends the part just before the pairs or, leftmost first, one of the pairs ("step:3" is a pair too).
    for index in range(max(first_pair - 1, 0), len(parts)):
        head, found, digits = parts[index].rpartition("step:")
        if found and digits.isascii() and digits.isdigit():
            break
    else:
        return None
    step = _checked_step(int(digits) if len(digits) <= 20 else MAX_STEP + 1)
    data = {}
    for part in parts[index + 1 :]:
        key, _, value = part.rpartition(":")
        try:
            data[key] = float(value)
        except ValueError:
            continue
    values = _checked_values(canonicalize(data, VERL_KEYS))
    return StepRecord(step=step, values=values, line_number=line_number)


def _is_pair(part: str) -> bool:
    """`key:value` as verl prints it: a key without ':' that starts with neither ':' nor a space, a value without
    spaces."""
    key, found, value = part.partition(":")
    return bool(found and key and value) and not key[0].isspace() and not any(c.isspace() for c in value)


def _parse_line(raw: bytes, line_number: int) -> StepRecord | MalformedLine:
    """A line → its record, or why it is not one. Never raises: whatever a line holds (a 400-digit number, nesting
    deeper than the parser's recursion, a step above 2**63, NaN as a step), it is one malformed line, and the
    lines after it are read."""
    if len(raw) > MAX_LINE_BYTES:
        return MalformedLine(line_number, f"longer than {MAX_LINE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return MalformedLine(line_number, "not valid UTF-8")
    try:
        # Python's JSON reader accepts NaN/Infinity, which the platform's writer emits on purpose.
        return parse_record(json.loads(text), line_number)
    except json.JSONDecodeError as error:
        try:
            console = parse_console_line(text, line_number)
        except ValueError as console_error:
            return MalformedLine(line_number, str(console_error))
        return console or MalformedLine(line_number, f"invalid JSON: {error.msg} at column {error.colno}")
    except ValueError as error:  # also Python's limit on the digits of an integer
        return MalformedLine(line_number, str(error)[:200])
    except RecursionError:
        return MalformedLine(line_number, "nested too deeply")
    except Exception as error:  # noqa: BLE001 - one line must never stop the reading of the others
        return MalformedLine(line_number, f"unreadable ({type(error).__name__})")


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
        cursor = self.cursor
        if cursor.offset == 0:
            first_line_end = data.find(b"\n", 0, FINGERPRINT_LIMIT) + 1 or min(len(data), FINGERPRINT_LIMIT)
            cursor = replace(
                cursor, fingerprint=hashlib.sha1(data[:first_line_end]).hexdigest(), fingerprint_length=first_line_end
            )
        end = data.rfind(b"\n") + 1
        if end == 0:
            if len(data) < max_bytes:
                return batch  # a partial line: wait for the rest
            # One line longer than max_bytes: no metrics line; skipped whole, once its end is written.
            line_end = self._line_end(cursor.offset + len(data), size)
            if line_end is None:
                return batch
            batch.malformed.append(MalformedLine(cursor.line_number + 1, f"longer than {max_bytes} bytes"))
            batch.bytes_read = line_end - cursor.offset
            self.cursor = replace(
                cursor,
                offset=line_end,
                line_number=cursor.line_number + 1,
                malformed_lines=cursor.malformed_lines + 1,
            )
            return batch
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

    def _line_end(self, start: int, size: int, chunk: int = 1024 * 1024) -> int | None:
        """The offset just past the first newline at or after `start`, or None when the line is not complete."""
        while start < size:
            data = self.source.read(start, min(chunk, size - start))
            if not data:
                return None
            newline = data.find(b"\n")
            if newline >= 0:
                return start + newline + 1
            start += len(data)
        return None
