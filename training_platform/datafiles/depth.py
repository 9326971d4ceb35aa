"""How deeply JSON text nests, told from its bytes before any parser sees them.

Parsers descend one call per level: pyarrow's JSON reader overflows the C stack on a line nested some ten thousand
levels deep (a 40 KB line takes the whole server down), Python's `json` raises RecursionError. So every JSON text
the platform reads from a user (a dataset line, a JSON array file, a request body) is measured first, in linear
time and without recursion: brackets are counted outside strings, a string ending at a quote that an even run of
backslashes precedes. Up to the first byte a parser would reject, this is the depth the parser reaches, so a text
measured within the limit cannot take a parser deeper.

The count is vectorised with numpy over windows of the text, carrying the state (depth, inside a string, a
pending backslash) from one window to the next; the common case, a line with fewer opening brackets than the
limit, is settled by counting them alone.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

_WINDOW = 1 << 18  # bytes measured at once: a few MB of numpy temporaries
_BLOCK = 1 << 24  # bytes of a file read at once
_QUOTE, _BACKSLASH, _NEWLINE, _COMMA = ord('"'), ord("\\"), ord("\n"), ord(",")
_OPENERS, _CLOSERS = (ord("["), ord("{")), (ord("]"), ord("}"))
# What `bytes.translate` drops to leave a line's opening brackets (and the newlines between lines).
_NOT_OPENERS = bytes(b for b in range(256) if b not in (*_OPENERS, _NEWLINE))


def _openers(data: bytes) -> int:
    return data.count(b"[") + data.count(b"{")


@dataclass
class _State:
    depth: int = 0
    in_string: bool = False
    backslash: bool = False  # an odd run of backslashes ends the text so far: the next byte is escaped
    row: int = 1  # the element of a top-level array being read


def _measure(data: bytes, limit: int, state: _State) -> int | None:
    """Advance `state` over `data`; the top-level array element (counted by the commas between them) where the
    depth first exceeds `limit`, or None."""
    for start in range(0, len(data), _WINDOW):
        found = _window(np.frombuffer(data, np.uint8, min(_WINDOW, len(data) - start), start), limit, state)
        if found is not None:
            return found
    return None


def _window(a: np.ndarray, limit: int, state: _State) -> int | None:
    index = np.arange(len(a), dtype=np.int64)
    # Length of the backslash run ending at each byte (the run before the window continues into it).
    last_other = np.maximum.accumulate(np.where(a == _BACKSLASH, -1, index))
    run = index - last_other + np.where(last_other < 0, int(state.backslash), 0)
    escaped = np.concatenate(([state.backslash], (run[:-1] & 1).astype(bool)))
    quote = (a == _QUOTE) & ~escaped
    quotes = np.cumsum(quote, dtype=np.int64)
    outside = ((quotes - quote + int(state.in_string)) & 1) == 0
    delta = (((a == _OPENERS[0]) | (a == _OPENERS[1])) & outside).astype(np.int64)
    delta -= ((a == _CLOSERS[0]) | (a == _CLOSERS[1])) & outside
    depth = np.cumsum(delta) + state.depth
    separators = (a == _COMMA) & outside & (depth == 1)
    over = np.flatnonzero(depth > limit)
    if len(over):
        return state.row + int(np.count_nonzero(separators[: over[0]]))
    state.backslash = bool(run[-1] & 1)
    state.depth = int(depth[-1])
    state.in_string = bool((int(quotes[-1]) + int(state.in_string)) & 1)
    state.row += int(np.count_nonzero(separators))
    return None


def too_deep(text: bytes, limit: int) -> bool:
    """Whether one JSON text (a request body, a dataset line) nests deeper than `limit` levels."""
    if _openers(text) <= limit:
        return False
    return _measure(text, limit, _State()) is not None


def first_deep_element(path: Path, limit: int) -> int | None:
    """The first element (1-based) of the JSON array in `path` nesting deeper than `limit` levels in itself."""
    state = _State()
    with open(path, "rb") as handle:
        while block := handle.read(_BLOCK):
            # Inside the top-level array an element's own depth is one less than the file's.
            if (found := _measure(block, limit + 1, state)) is not None:
                return found
    return None


def _line_blocks(path: Path) -> Iterator[bytes]:
    """The file in blocks of whole lines (a line longer than a block is a block of its own)."""
    parts: list[bytes] = []
    with open(path, "rb") as handle:
        while block := handle.read(_BLOCK):
            cut = block.rfind(b"\n") + 1
            if cut == 0:
                parts.append(block)
                continue
            yield b"".join([*parts, block[:cut]])
            parts = [block[cut:]]
    if rest := b"".join(parts):
        yield rest


def has_deep_line(path: Path, limit: int) -> bool:
    """Whether any line of a JSON Lines file nests deeper than `limit` levels."""
    for block in _line_blocks(path):
        if _openers(block) <= limit:
            continue
        counts = block.translate(None, _NOT_OPENERS).split(b"\n")
        if max(map(len, counts)) <= limit:
            continue
        lines = block.split(b"\n")
        if any(too_deep(lines[i], limit) for i, count in enumerate(counts) if len(count) > limit):
            return True
    return False
