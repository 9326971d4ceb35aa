"""What reading one file may cost, and the checks that hold a Parquet or Arrow file to it.

What a file may cost to read is bounded (`ReadLimits`, docs/security.md): how deeply a JSON row nests, measured
before a parser sees it (datafiles/depth.py), and how large a Parquet or Arrow file decodes, from its metadata
before a value is decoded, then again as each row group or record batch is (`decoded_bytes`: a dictionary counted
as its values times its largest entry), since metadata is the file's own word. So a Parquet or Arrow file is opened
here (`open_parquet`, `open_arrow`), its metadata checked before anything else of it is read, a buffer that lies
outside its message refused. The server reads files only in its decoding worker, whose memory and CPU time the
kernel limits (datasets/decoding.py); these counts hold for every reader, the training process's and the CLI's too.
"""

import struct
from dataclasses import dataclass
from pathlib import Path

from training_platform.datafiles.errors import DatasetFileError, OverLimitError


@dataclass(frozen=True)
class ReadLimits:
    """What reading one file may cost; the server reads with its settings' values (PLATFORM_MAX_JSON_DEPTH,
    PLATFORM_MAX_DECODED_BYTES, PLATFORM_MAX_CSV_COLUMNS), the training process and the CLI with these defaults,
    the settings' own."""

    max_json_depth: int = 64
    max_decoded_bytes: int = 8 * 2**30
    max_csv_columns: int = 10_000

    def too_deep_message(self) -> str:
        return f"nests deeper than {self.max_json_depth} levels of JSON objects and arrays"


DEFAULT_LIMITS = ReadLimits()


def open_parquet(path: Path, limits: ReadLimits | None = DEFAULT_LIMITS):
    """The file with its metadata read; refused when the metadata says it decodes to more than the limit
    (`limits=None`: the metadata alone is wanted, nothing will be decoded)."""
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(path)
        if limits is not None:
            check_parquet(parquet, path.name, limits)
            # Dictionary-encoded columns come back as dictionaries, to be counted before they are expanded
            # (`decoded_bytes`): expanded as they are read, 500 bytes of file can hold 300 MB of text.
            if dictionaries := _dictionary_columns(parquet.metadata):
                parquet = pq.ParquetFile(path, read_dictionary=dictionaries)
    except DatasetFileError:
        raise
    except MemoryError:  # out of the decoding worker's memory: its limit, not a corrupt file
        raise
    except Exception as error:  # pyarrow raises several unrelated types for a corrupt file
        raise DatasetFileError(f"{path.name} is not a readable Parquet file: {error}") from None
    return parquet


def _dictionary_columns(metadata) -> list[str]:
    """The top-level byte-array columns some row group stores with a dictionary."""
    schema = metadata.schema
    names = {
        i: schema.column(i).path
        for i in range(metadata.num_columns)
        if schema.column(i).physical_type == "BYTE_ARRAY" and "." not in schema.column(i).path
    }
    return [
        name
        for i, name in names.items()
        if any(metadata.row_group(g).column(i).has_dictionary_page for g in range(metadata.num_row_groups))
    ]


def decoded_bytes(data) -> int:
    """What a record batch or a table holds once each value is its own, as a Python row or a text column holds
    it: a dictionary column counted as its values times its largest entry (its indices and dictionary alone may be
    a millionth of that)."""
    columns = data.columns
    total = 0
    for column in columns:
        for array in getattr(column, "chunks", [column]):
            total += _expanded_bytes(array)
    return total


def _expanded_bytes(array) -> int:
    import pyarrow as pa
    import pyarrow.compute as pc

    if not pa.types.is_dictionary(array.type):
        return array.nbytes
    dictionary = array.dictionary
    if len(dictionary) == 0:
        return array.nbytes
    value_type = dictionary.type
    if pa.types.is_string(value_type) or pa.types.is_binary(value_type) or pa.types.is_large_string(value_type):
        largest = (pc.max(pc.binary_length(dictionary)).as_py() or 0) + 4  # and its offset
    elif pa.types.is_large_binary(value_type):
        largest = (pc.max(pc.binary_length(dictionary)).as_py() or 0) + 8
    elif pa.types.is_primitive(value_type):
        largest = max(value_type.bit_width // 8, 1)
    else:  # a nested value: counted as the whole dictionary, the most one value can be
        largest = dictionary.nbytes
    return array.indices.nbytes + len(array) * largest


def over_decoded_limit(name: str, limits: ReadLimits) -> OverLimitError:
    return OverLimitError(
        f"{name} decodes to more than the limit of {limits.max_decoded_bytes} bytes (PLATFORM_MAX_DECODED_BYTES)"
    )


# Bytes one value takes once decoded, by Parquet physical type (a byte array: its 4-byte offset at least).
_VALUE_BYTES = {"BOOLEAN": 1, "INT32": 4, "INT64": 8, "INT96": 12, "FLOAT": 4, "DOUBLE": 8, "BYTE_ARRAY": 4}


def decoded_size(metadata) -> int:
    """A lower bound of what a Parquet file decodes to, from its metadata: per column chunk, its uncompressed
    size or its values times their width, whichever is larger (run-length and dictionary encodings shrink a
    column far below its decoded size even before compression: 450 bytes of file can hold 200 MB of values)."""
    widths = [
        _VALUE_BYTES.get(column.physical_type, column.length or 1)
        for column in (metadata.schema.column(i) for i in range(metadata.num_columns))
    ]
    total = 0
    for index in range(metadata.num_row_groups):
        group = metadata.row_group(index)
        for position in range(group.num_columns):
            chunk = group.column(position)
            values = max(chunk.num_values, group.num_rows)
            total += max(chunk.total_uncompressed_size, values * widths[position])
    return total


def check_parquet(parquet, name: str, limits: ReadLimits) -> None:
    """Refuse a file before any page is decoded: nested deeper than JSON rows may be, or decoding to more than
    the limit."""
    metadata = parquet.metadata
    schema = metadata.schema
    # A list takes two levels of a column's path (`x.list.element`), a struct one.
    deepest = max((len(schema.column(i).path.split(".")) for i in range(metadata.num_columns)), default=0)
    if deepest > 2 * limits.max_json_depth:
        raise DatasetFileError(f"{name}: a column {limits.too_deep_message()}")
    size = decoded_size(metadata)
    if size > limits.max_decoded_bytes:
        raise OverLimitError(
            f"{name} decodes to at least {size} bytes ({metadata.num_rows} rows), over the limit of "
            f"{limits.max_decoded_bytes} bytes (PLATFORM_MAX_DECODED_BYTES)"
        )


def open_arrow(path: Path, limits: ReadLimits = DEFAULT_LIMITS):
    """A reader of an Arrow IPC file's record batches (stream format, as save_to_disk writes it, or file format),
    refused before any is decoded when the file decodes to more than the limit or nests deeper than JSON rows may."""
    import pyarrow as pa

    rows, size = arrow_size(path)
    if size > limits.max_decoded_bytes:
        raise OverLimitError(
            f"{path.name} decodes to {size} bytes ({rows} rows), over the limit of {limits.max_decoded_bytes} "
            f"bytes (PLATFORM_MAX_DECODED_BYTES)"
        )
    try:
        reader = pa.ipc.open_stream(_arrow_stream(path))
    except MemoryError:  # out of the decoding worker's memory: its limit, not a corrupt file
        raise
    except Exception as error:  # pyarrow raises several unrelated types for a corrupt file
        raise DatasetFileError(f"{path.name} is not a readable Arrow file: {error}") from None
    if _nests_deeper(reader.schema, limits.max_json_depth):
        raise DatasetFileError(f"{path.name}: a column {limits.too_deep_message()}")
    return reader


def _arrow_stream(path: Path):
    """The file memory-mapped (batches are read from it without a copy), at its first message: an IPC file holds a
    stream after its 8 bytes of magic."""
    import pyarrow as pa

    source = pa.memory_map(str(path))
    source.seek(8 if source.read(6) == b"ARROW1" else 0)
    return source


def arrow_size(path: Path) -> tuple[int, int]:
    """The rows and decoded bytes of an Arrow IPC file, from its messages' metadata without decoding a buffer."""
    import pyarrow as pa

    rows = size = 0
    try:
        for message in pa.ipc.MessageReader.open_stream(_arrow_stream(path)):
            batch_rows, batch_size = _batch_size(message)
            rows, size = rows + batch_rows, size + batch_size
    except MemoryError:  # out of the decoding worker's memory: its limit, not a corrupt file
        raise
    except Exception as error:  # pyarrow's several types, or metadata that points outside itself
        raise DatasetFileError(f"{path.name} is not a readable Arrow file: {error}") from None
    return rows, size


def _batch_size(message) -> tuple[int, int]:
    """Rows and decoded bytes of one message: the lengths of its buffers, read from its metadata (the flatbuffer
    the IPC format defines), or for a compressed buffer the decoded length its first 8 bytes hold. A message of no
    record batch (the schema) decodes to nothing."""
    meta = message.metadata.to_pybytes()
    root = _offset(meta, 0)
    header_type = _field(meta, root, 1)
    kind = meta[header_type] if header_type is not None else 0
    if kind not in (_RECORD_BATCH, _DICTIONARY_BATCH):
        return 0, 0
    header = _offset(meta, _field(meta, root, 2))
    batch = _offset(meta, _field(meta, header, 1)) if kind == _DICTIONARY_BATCH else header
    length = _field(meta, batch, 0)
    rows = struct.unpack_from("<q", meta, length)[0] if length is not None and kind == _RECORD_BATCH else 0
    buffers = _offset(meta, _field(meta, batch, 2))
    compressed = _field(meta, batch, 3) is not None
    size = 0
    body = message.body.size if message.body is not None else 0
    for index in range(struct.unpack_from("<I", meta, buffers)[0]):
        offset, length = struct.unpack_from("<qq", meta, buffers + 4 + 16 * index)
        if offset < 0 or length < 0 or offset + length > body:
            # A negative length, or one past the message, would read as a small size and decode as a huge one.
            raise ValueError(f"buffer {index} lies outside its message (offset {offset}, length {length})")
        if compressed and length >= 8:
            decoded = struct.unpack_from("<q", message.body, offset)[0]
            if decoded < -1:
                raise ValueError(f"buffer {index} declares a negative decoded length ({decoded})")
            size += length - 8 if decoded == -1 else decoded  # -1: the buffer was left uncompressed
        elif not compressed:
            size += length
    return rows, size


_RECORD_BATCH, _DICTIONARY_BATCH = 3, 2  # MessageHeader's union types


def _field(meta: bytes, table: int, index: int) -> int | None:
    """Where field `index` of the flatbuffer table at `table` lies, or None when it is absent."""
    vtable = table - struct.unpack_from("<i", meta, table)[0]
    entry = 4 + 2 * index
    if entry + 2 > struct.unpack_from("<H", meta, vtable)[0]:
        return None
    offset = struct.unpack_from("<H", meta, vtable + entry)[0]
    return table + offset if offset else None


def _offset(meta: bytes, position: int) -> int:
    return position + struct.unpack_from("<I", meta, position)[0]


def _nests_deeper(schema, limit: int) -> bool:
    """Whether a row of this schema nests deeper than `limit` levels, as a JSON object would (the row one level, each
    struct, list or map in it one more); told without recursion, whatever the schema."""
    pending = [(field.type, 2) for field in schema]
    while pending:
        arrow_type, depth = pending.pop()
        if arrow_type.num_fields and depth > limit:
            return True
        pending.extend((arrow_type.field(i).type, depth + 1) for i in range(arrow_type.num_fields))
    return False
