"""Weight averages of a job's checkpoints (SWA: uniform weights, EMA: weights the caller computes) into a new Hugging
Face model directory, holding a few fixed-size chunks of tensors at a time (docs/surgery.md).

The rule: however many and however large the checkpoints, the process's peak resident memory is the interpreter's
and numpy's plus a few chunks of 8 MiB (about 50 MiB in all, tests/merging/test_averaging.py). The price is a
small hand-written reader and writer of the safetensors format, since the library cannot stream:
`safetensors.save_file` needs every tensor of a shard in memory at once, `safe_open(framework="numpy")` cannot read
bfloat16, and reading through a memory map counts every page touched in the resident set. Here input files are read
with `os.pread` and outputs are written tensor by tensor, after a header computed from the inputs' headers. Only
numpy is imported (no torch), so the process itself stays small.

Each output element is the weighted sum accumulated in float64 and rounded once to the output dtype: accumulating
in float32 would round after every input (an error growing with their number and depending on their order), and
float64 costs only the size of one chunk, the unit of work, however large a tensor is. A bfloat16 output is
rounded float64 -> float32 -> bfloat16 (both to nearest even); the two steps can differ from a single rounding only
when the float64 sum lies within half a float32 step of a bfloat16 halfway point.

Tensors of integer or boolean dtype cannot be averaged: they are copied unchanged from the last input, like the
non-weight files (config, tokenizer, chat template), so the result is the last checkpoint with averaged weights.
"""

import json
import math
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

WEIGHTS_NAME = "model.safetensors"
WEIGHTS_INDEX_NAME = "model.safetensors.index.json"
# Elements of one tensor averaged at once: the float64 sum and one scaled input take 8 MiB each.
CHUNK_ELEMENTS = 1 << 20
# Bytes of a copied (integer) tensor read at once.
COPY_CHUNK_BYTES = 1 << 23

FLOAT_DTYPES = {"F64": np.dtype("<f8"), "F32": np.dtype("<f4"), "F16": np.dtype("<f2"), "BF16": np.dtype("<u2")}
OUTPUT_DTYPES = {"float32": "F32", "float16": "F16", "bfloat16": "BF16"}
# Kept as they are (copied bytes): averaging them means nothing.
COPIED_DTYPES = {"BOOL", "U8", "I8", "U16", "I16", "U32", "I32", "U64", "I64"}
# Files of the last input not copied: weights (the average replaces them, and their indexes) and the checkpoint's
# training state (optimizer.pt, scheduler.pt, rng_state*.pth, training_args.bin, trainer_state.json).
SKIPPED_SUFFIXES = (".safetensors", ".index.json", ".pt", ".pth", ".bin")
TRAINING_STATE_FILES = {"trainer_state.json"}


@dataclass(frozen=True)
class TensorEntry:
    """Where one tensor's bytes lie in a safetensors file."""

    path: Path
    dtype: str
    shape: tuple[int, ...]
    start: int  # absolute offset in the file
    nbytes: int

    @property
    def numel(self) -> int:
        return math.prod(self.shape)


def average_checkpoints(
    inputs: list[Path],
    weights: list[float],
    target: Path,
    dtype: str | None = None,
    progress: Callable[[int, int], None] = lambda done, total: None,
    max_shard_bytes: int = 2 * 2**30,
) -> None:
    """Write `sum(weights[i] * inputs[i])` to `target`, tensor by tensor, with the last input's other files.

    Every input must hold the same tensors (names, shapes, dtypes) as the first; that is checked from the headers,
    before any weight is read. `weights` are already normalised to sum 1. `dtype` ("float32", "float16",
    "bfloat16") sets the dtype of the averaged tensors, and config.json's, instead of the inputs' own. Raises
    ValueError for inputs that cannot be averaged and FileExistsError when `target` holds files already.
    """
    if not inputs:
        raise ValueError("no checkpoints to average")
    if len(weights) != len(inputs):
        raise ValueError(f"{len(weights)} weights for {len(inputs)} checkpoints")
    if not math.isclose(math.fsum(weights), 1.0, abs_tol=1e-6):
        raise ValueError(f"the weights sum to {math.fsum(weights)}, not 1")
    if dtype is not None and dtype not in OUTPUT_DTYPES:
        raise ValueError(f"dtype {dtype!r} is not one of {', '.join(OUTPUT_DTYPES)}")
    tensors = [read_weight_headers(directory) for directory in inputs]
    check_same_tensors(inputs, tensors)
    first = tensors[0]
    for name, entry in first.items():
        if entry.dtype not in FLOAT_DTYPES and entry.dtype not in COPIED_DTYPES:
            raise ValueError(f"{inputs[0].name}: {name} has dtype {entry.dtype}, which cannot be averaged")
    output_dtype = {name: output_dtype_of(entry.dtype, dtype) for name, entry in first.items()}

    if target.exists() and any(target.iterdir()):
        raise FileExistsError(f"{target} is not empty")
    target.mkdir(parents=True, exist_ok=True)
    # The inputs' order, file by file: reads then go forward through each file.
    names = sorted(first, key=lambda name: (first[name].path.name, first[name].start))
    nbytes = {name: output_nbytes(first[name], output_dtype[name]) for name in names}
    shards = plan_shards(names, nbytes, max_shard_bytes)
    done = 0
    progress(done, len(names))
    reader = FileReader()
    try:
        for shard_index, shard_names in enumerate(shards):
            header = {"__metadata__": {"format": "pt"}}
            offset = 0
            for name in shard_names:
                header[name] = {
                    "dtype": output_dtype[name],
                    "shape": list(first[name].shape),
                    "data_offsets": [offset, offset + nbytes[name]],
                }
                offset += nbytes[name]
            with open(target / shard_file_name(shard_index, len(shards)), "wb") as out:
                out.write(encode_header(header))
                for name in shard_names:
                    entries = [checkpoint[name] for checkpoint in tensors]
                    if first[name].dtype in COPIED_DTYPES:
                        copy_tensor(reader, entries[-1], out)
                    else:
                        average_tensor(reader, entries, weights, output_dtype[name], out)
                    done += 1
                    progress(done, len(names))
                # The header promised these offsets: a shard of another length would be unreadable.
                if out.tell() != len(encode_header(header)) + offset:
                    raise RuntimeError(f"{out.name} does not have the length its header gives")
    finally:
        reader.close()
    if len(shards) > 1:
        weight_map = {name: shard_file_name(i, len(shards)) for i, shard in enumerate(shards) for name in shard}
        index = {"metadata": {"total_size": sum(nbytes.values())}, "weight_map": dict(sorted(weight_map.items()))}
        (target / WEIGHTS_INDEX_NAME).write_text(json.dumps(index, indent=2) + "\n")
    copy_model_files(inputs[-1], target, dtype)


def read_weight_headers(directory: Path) -> dict[str, TensorEntry]:
    """The tensors of a model directory's safetensors weights (one file, or the shards its index names)."""
    index_path = directory / WEIGHTS_INDEX_NAME
    if index_path.is_file():
        files = sorted(set(json.loads(index_path.read_text())["weight_map"].values()))
    elif (directory / WEIGHTS_NAME).is_file():
        files = [WEIGHTS_NAME]
    else:
        raise ValueError(f"{directory} has no safetensors weights ({WEIGHTS_NAME} or {WEIGHTS_INDEX_NAME})")
    tensors = {}
    for file_name in files:
        tensors.update(read_header(directory / file_name))
    if not tensors:
        raise ValueError(f"{directory} has no safetensors weights (its files hold no tensor)")
    return tensors


def read_header(path: Path) -> dict[str, TensorEntry]:
    """A safetensors file's tensors: an 8-byte little-endian header length, a JSON header, then the raw bytes."""
    with open(path, "rb") as file:
        header_length = int.from_bytes(file.read(8), "little")
        header = json.loads(file.read(header_length))
    data_start = 8 + header_length
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        entry = TensorEntry(path, info["dtype"], tuple(info["shape"]), data_start + begin, end - begin)
        itemsize = FLOAT_DTYPES[entry.dtype].itemsize if entry.dtype in FLOAT_DTYPES else None
        if itemsize is not None and entry.numel * itemsize != entry.nbytes:
            raise ValueError(f"{path}: {name} has {entry.nbytes} bytes for shape {list(entry.shape)}")
        tensors[name] = entry
    return tensors


def check_same_tensors(inputs: list[Path], tensors: list[dict[str, TensorEntry]]) -> None:
    """Raise ValueError naming the first input and tensor that differ from the first input's."""
    reference_name = inputs[0].name
    reference = tensors[0]
    for directory, checkpoint in zip(inputs[1:], tensors[1:], strict=True):
        for name in sorted(reference):
            if name not in checkpoint:
                raise ValueError(f"{directory.name} has no tensor {name}, which {reference_name} has")
            ours, theirs = checkpoint[name], reference[name]
            if ours.shape != theirs.shape:
                shapes = f"{list(ours.shape)}, {reference_name} has {list(theirs.shape)}"
                raise ValueError(f"{directory.name}: {name} has shape {shapes}")
            if ours.dtype != theirs.dtype:
                raise ValueError(
                    f"{directory.name}: {name} has dtype {ours.dtype}, {reference_name} has {theirs.dtype}"
                )
        extra = sorted(set(checkpoint) - set(reference))
        if extra:
            raise ValueError(f"{directory.name} has a tensor {extra[0]}, which {reference_name} has not")


def output_dtype_of(input_dtype: str, requested: str | None) -> str:
    if input_dtype in COPIED_DTYPES or requested is None:
        return input_dtype
    return OUTPUT_DTYPES[requested]


def output_nbytes(entry: TensorEntry, dtype: str) -> int:
    return entry.nbytes if dtype in COPIED_DTYPES else entry.numel * FLOAT_DTYPES[dtype].itemsize


def plan_shards(names: list[str], nbytes: dict[str, int], max_shard_bytes: int) -> list[list[str]]:
    """Tensors in order, a new shard whenever the next would pass the limit (a larger tensor gets its own)."""
    shards: list[list[str]] = [[]]
    size = 0
    for name in names:
        if shards[-1] and size + nbytes[name] > max_shard_bytes:
            shards.append([])
            size = 0
        shards[-1].append(name)
        size += nbytes[name]
    return shards


def shard_file_name(index: int, count: int) -> str:
    """Transformers' names: model.safetensors alone, model-00001-of-00003.safetensors among several."""
    return WEIGHTS_NAME if count == 1 else f"model-{index + 1:05d}-of-{count:05d}.safetensors"


def encode_header(header: dict) -> bytes:
    """The length-prefixed JSON header, padded with spaces so the tensors' bytes start 8-byte aligned."""
    encoded = json.dumps(header, separators=(",", ":")).encode()
    encoded += b" " * (-len(encoded) % 8)
    return len(encoded).to_bytes(8, "little") + encoded


class FileReader:
    """Positioned reads (`os.pread`) of the input files, each opened once: no memory map, so the bytes read are
    the only memory they take."""

    def __init__(self) -> None:
        self.descriptors: dict[Path, int] = {}

    def read(self, path: Path, offset: int, size: int) -> bytes:
        descriptor = self.descriptors.get(path)
        if descriptor is None:
            descriptor = self.descriptors[path] = os.open(path, os.O_RDONLY)
        data = os.pread(descriptor, size, offset)
        # A single read can return less than asked (Linux caps one at about 2 GiB); the rest is read after it.
        while len(data) < size:
            more = os.pread(descriptor, size - len(data), offset + len(data))
            if not more:
                raise ValueError(f"{path} ends before byte {offset + size}: the file is truncated")
            data += more
        return data

    def close(self) -> None:
        for descriptor in self.descriptors.values():
            os.close(descriptor)
        self.descriptors.clear()


def copy_tensor(reader: FileReader, entry: TensorEntry, out) -> None:
    for begin in range(0, entry.nbytes, COPY_CHUNK_BYTES):
        out.write(reader.read(entry.path, entry.start + begin, min(COPY_CHUNK_BYTES, entry.nbytes - begin)))


def average_tensor(reader: FileReader, entries: list[TensorEntry], weights: list[float], dtype: str, out) -> None:
    """Write the weighted sum of one tensor of every input, chunk by chunk, each summed in float64."""
    numel = entries[0].numel
    total = np.empty(min(numel, CHUNK_ELEMENTS), np.float64)
    scaled = np.empty_like(total)
    for begin in range(0, numel, CHUNK_ELEMENTS):
        count = min(CHUNK_ELEMENTS, numel - begin)
        for position, (entry, weight) in enumerate(zip(entries, weights, strict=True)):
            itemsize = FLOAT_DTYPES[entry.dtype].itemsize
            raw = reader.read(entry.path, entry.start + begin * itemsize, count * itemsize)
            values = decode_floats(raw, entry.dtype)
            np.multiply(values, weight, out=total[:count] if position == 0 else scaled[:count], dtype=np.float64)
            if position:
                np.add(total[:count], scaled[:count], out=total[:count])
        out.write(encode_floats(total[:count], dtype))


def decode_floats(raw: bytes, dtype: str) -> np.ndarray:
    values = np.frombuffer(raw, FLOAT_DTYPES[dtype])
    return bfloat16_to_float32(values) if dtype == "BF16" else values


def encode_floats(values: np.ndarray, dtype: str) -> np.ndarray:
    if dtype == "BF16":
        return float32_to_bfloat16(values.astype(np.float32))
    return values.astype(FLOAT_DTYPES[dtype])


def bfloat16_to_float32(bits: np.ndarray) -> np.ndarray:
    """bfloat16 is the upper half of a float32: the bits shifted into place are the exact value."""
    return (bits.astype(np.uint32) << 16).view(np.float32)


def float32_to_bfloat16(values: np.ndarray) -> np.ndarray:
    """The bfloat16 bits (uint16) nearest each float32, ties to even; a NaN stays a (quiet) NaN."""
    bits = values.view(np.uint32)
    # Adding 0x7FFF, plus one when the kept part is odd, carries into the kept part exactly when rounding goes up.
    rounded = ((bits + (0x7FFF + ((bits >> 16) & 1))) >> 16).astype(np.uint16)
    # A NaN's payload may lie in the dropped half only (or carry into the sign): set the quiet bit instead.
    nan = np.isnan(values)
    if nan.any():
        rounded[nan] = ((bits[nan] >> 16) | 0x0040).astype(np.uint16)
    return rounded


def copy_model_files(source: Path, target: Path, dtype: str | None) -> None:
    """The last input's other files (config, generation config, tokenizer, chat template), none of its weights
    or training state; config.json's dtype follows a requested one."""
    for path in sorted(source.iterdir()):
        skipped = path.name in TRAINING_STATE_FILES or path.name.endswith(SKIPPED_SUFFIXES)
        if path.is_file() and not skipped:
            shutil.copy2(path, target / path.name)
    config_path = target / "config.json"
    if dtype is not None and config_path.is_file():
        config = json.loads(config_path.read_text())
        keys = [key for key in ("torch_dtype", "dtype") if key in config]
        if keys:
            config.update(dict.fromkeys(keys, dtype))
            config_path.write_text(json.dumps(config, indent=2) + "\n")
