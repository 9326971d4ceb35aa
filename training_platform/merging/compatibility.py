"""Whether models fit together, checked by the server before a surgery run is created, from headers only: a merge
or an average of models that differ, or an adapter made for another base, is a 422 naming the first thing that
differs, not a process that fails minutes later (docs/surgery.md).

The price is bounded and small: each model's config.json and the JSON header of each of its safetensors files
(names, dtypes, shapes), never a weight and never torch. safetensors itself refuses a header over 100 MB
(its MAX_HEADER_SIZE) before reading it; the JSON files read here have the same bound, and an index may name at most
`MAX_SHARDS` shards. Models stored only as pickled `.bin` weights are refused: their shapes cannot be read without
unpickling them.
"""

import json
from dataclasses import dataclass
from pathlib import Path

from safetensors import SafetensorError, safe_open

WEIGHTS_FILE = "model.safetensors"
INDEX_FILE = "model.safetensors.index.json"
ADAPTER_CONFIG = "adapter_config.json"
ADAPTER_WEIGHTS = "adapter_model.safetensors"
MAX_JSON_BYTES = 100_000_000  # the same bound as safetensors' on a header
MAX_SHARDS = 1_000
# peft saves a LoRA adapter's weights under the wrapped model's names: base_model.model.<module>.lora_A.weight
# ([r, in, *kernel]) and .lora_B.weight ([out, r, *1]) for a linear or convolution, .lora_embedding_A ([r, vocab])
# and .lora_embedding_B ([dim, r]) for an embedding.
ADAPTER_PREFIX = "base_model.model."
EMBEDDING_A = ".lora_embedding_A"
LORA_PAIRS = ((".lora_A.weight", ".lora_B.weight"), (EMBEDDING_A, ".lora_embedding_B"))
TIED_HEAD = "lm_head.weight"

Shape = tuple[int, ...]


class IncompatibleModels(ValueError):
    """A model directory that cannot be read as the input of a surgery run."""


@dataclass(frozen=True)
class ModelSignature:
    architecture: str
    model_type: str | None
    tensors: dict[str, tuple[str, Shape]]  # name → (safetensors dtype such as "BF16", shape)
    tied_embeddings: bool = False


def model_signature(directory: Path) -> ModelSignature:
    """A model directory's architecture and tensor shapes, from config.json and the safetensors headers of
    model.safetensors or of the shards its index names."""
    config = _read_json(directory / "config.json", f"{directory} has no config.json")
    architectures = config.get("architectures") or []
    model_type = config.get("model_type")
    architecture = architectures[0] if architectures else model_type
    if not isinstance(architecture, str):
        raise IncompatibleModels(f"{directory}/config.json names no architecture or model_type")
    tensors: dict[str, tuple[str, Shape]] = {}
    for path in _weight_files(directory):
        tensors.update(_header(path))
    return ModelSignature(
        architecture=architecture,
        model_type=model_type if isinstance(model_type, str) else None,
        tensors=tensors,
        tied_embeddings=config.get("tie_word_embeddings") is True,
    )


def first_difference(reference: tuple[str, ModelSignature], other: tuple[str, ModelSignature]) -> str | None:
    """The first thing that keeps two models from being combined tensor by tensor, as one sentence naming both
    labels; None when they have the same architecture and the same tensor names and shapes. Dtypes may differ: the
    run casts. A model that ties its embeddings has no lm_head.weight of its own, so that tensor is compared only
    when neither ties."""
    (a, first), (b, second) = reference, other
    if first.architecture != second.architecture:
        return f"{b} is a {second.architecture}, {a} a {first.architecture}"
    ignored = {TIED_HEAD} if first.tied_embeddings or second.tied_embeddings else set()
    for name in sorted((first.tensors.keys() | second.tensors.keys()) - ignored):
        if name not in second.tensors:
            return f"{b} has no tensor {name}, which {a} has"
        if name not in first.tensors:
            return f"{a} has no tensor {name}, which {b} has"
        shape_a, shape_b = first.tensors[name][1], second.tensors[name][1]
        if shape_a != shape_b:
            return f"{name} is {_shape(shape_a)} in {a}, {_shape(shape_b)} in {b}"
    return None


def adapter_problem(base: Path, adapter: Path) -> str | None:
    """Why a LoRA adapter cannot be folded into a base model, as one sentence; None when every module the adapter
    adapts exists in the base with the shape the adapter's matrices multiply to."""
    for name in (ADAPTER_CONFIG, ADAPTER_WEIGHTS):
        if not (adapter / name).is_file():
            return f"{adapter} has no {name}"
    try:
        adapter_config = _read_json(adapter / ADAPTER_CONFIG, f"{adapter} has no {ADAPTER_CONFIG}")
        expected_weights = _adapted_weights(_header(adapter / ADAPTER_WEIGHTS), adapter_config, adapter)
        base_tensors = model_signature(base).tensors
    except IncompatibleModels as error:
        return str(error)
    for module, expected in sorted(expected_weights.items()):
        weight = f"{module}.weight"
        if weight not in base_tensors:
            return f"the base has no {weight}"
        actual = base_tensors[weight][1]
        if actual != expected:
            return f"the adapter's {module} expects a {_shape(expected)} weight; the base has {_shape(actual)}"
    return None


def _adapted_weights(tensors: dict[str, tuple[str, Shape]], adapter_config: dict, adapter: Path) -> dict[str, Shape]:
    """Each module the adapter adapts, by its name in the base model → the shape its weight must have for
    lora_B @ lora_A to be added to it."""
    fan_in_fan_out = adapter_config.get("fan_in_fan_out") is True  # GPT-2's Conv1D keeps its weight as [in, out]
    expected = {}
    for name, (_dtype, shape_a) in tensors.items():
        for suffix_a, suffix_b in LORA_PAIRS:
            if not (name.startswith(ADAPTER_PREFIX) and name.endswith(suffix_a)):
                continue
            module = name[len(ADAPTER_PREFIX) : -len(suffix_a)]
            partner = name[: -len(suffix_a)] + suffix_b
            if partner not in tensors:
                raise IncompatibleModels(f"the adapter's {module} has {suffix_a[1:]} but no {suffix_b[1:]}")
            shape_b = tensors[partner][1]
            if len(shape_a) < 2 or len(shape_b) < 2 or shape_a[0] != shape_b[1]:
                raise IncompatibleModels(
                    f"the adapter's {module} has LoRA matrices of shapes {_shape(shape_a)} and {_shape(shape_b)}, "
                    "which do not multiply"
                )
            # An embedding's weight is [vocab, dim] while its LoRA product is [dim, vocab]; likewise Conv1D's.
            if suffix_a == EMBEDDING_A or fan_in_fan_out:
                expected[module] = (shape_a[1], shape_b[0])
            else:
                expected[module] = (shape_b[0], shape_a[1], *shape_a[2:])
    if not expected:
        raise IncompatibleModels(f"{adapter}/{ADAPTER_WEIGHTS} holds no LoRA weights (lora_A and lora_B)")
    return expected


def _weight_files(directory: Path) -> list[Path]:
    """model.safetensors, else the shards model.safetensors.index.json names (the order transformers loads in)."""
    if (directory / WEIGHTS_FILE).is_file():
        return [directory / WEIGHTS_FILE]
    index_path = directory / INDEX_FILE
    if not index_path.is_file():
        raise IncompatibleModels(f"{directory} has no safetensors weights ({WEIGHTS_FILE} or an index)")
    weight_map = _read_json(index_path, f"{directory} has no {INDEX_FILE}").get("weight_map")
    if not isinstance(weight_map, dict) or not all(isinstance(shard, str) for shard in weight_map.values()):
        raise IncompatibleModels(f"{index_path} has no weight_map of tensor names to shard files")
    shards = sorted(set(weight_map.values()))
    if len(shards) > MAX_SHARDS:
        raise IncompatibleModels(f"{index_path} names {len(shards)} shards; at most {MAX_SHARDS} are read")
    for shard in shards:
        # A shard is a file beside its index: a path elsewhere would read files outside the model directory.
        if Path(shard).name != shard or shard in (".", ".."):
            raise IncompatibleModels(f"{index_path} names a shard outside its directory: {shard!r}")
        if not (directory / shard).is_file():
            raise IncompatibleModels(f"{index_path} names the shard {shard}, which is missing")
    return [directory / shard for shard in shards]


def _header(path: Path) -> dict[str, tuple[str, Shape]]:
    """A safetensors file's tensors, from its header alone: the numpy framework reads shapes and dtypes (bfloat16
    included) without a weight being read or torch imported."""
    try:
        with safe_open(path, framework="numpy") as weights:
            return {
                name: (weights.get_slice(name).get_dtype(), tuple(weights.get_slice(name).get_shape()))
                for name in weights.keys()
            }
    except SafetensorError as error:
        raise IncompatibleModels(f"{path} is not a readable safetensors file: {error}") from error


def _read_json(path: Path, missing: str) -> dict:
    if not path.is_file():
        raise IncompatibleModels(missing)
    size = path.stat().st_size
    if size > MAX_JSON_BYTES:
        raise IncompatibleModels(f"{path} is {size} bytes; at most {MAX_JSON_BYTES} are read")
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise IncompatibleModels(f"{path} is not valid JSON: {error}") from error
    if not isinstance(document, dict):
        raise IncompatibleModels(f"{path} is not a JSON object")
    return document


def _shape(shape: Shape) -> str:
    return f"[{', '.join(str(size) for size in shape)}]"
