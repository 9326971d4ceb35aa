"""The I/O floor of a merge, run as a process of its own by benchmarks/surgery/run.py: every tensor of every input
read with safetensors (`safe_open`, as mergekit reads them), and an output of the same size written shard by shard
with `save_file` at the merge's shard size. No arithmetic: the first input's tensor is what is written, so the floor
is what any merge of these files costs in reading, writing and holding one output shard.

`python io_floor.py OUT SHARD_BYTES INPUT...` (each input a model directory of .safetensors files).
"""

import sys
from pathlib import Path

from safetensors import safe_open
from safetensors.torch import save_file


def copy_through(inputs: list[Path], out: Path, shard_bytes: int) -> int:
    """Writes the first input's tensors to `out` after reading the same tensor from every input; returns the
    number of shards written."""
    handles = [[safe_open(path, framework="pt") for path in sorted(d.glob("*.safetensors"))] for d in inputs]
    located = [{name: handle for handle in files for name in handle.keys()} for files in handles]
    out.mkdir(parents=True, exist_ok=True)
    shard: dict = {}
    shard_size, written = 0, 0
    for name in sorted(located[0]):
        tensor = located[0][name].get_tensor(name)
        for model in located[1:]:
            model[name].get_tensor(name)  # read and dropped: a merge reads every input's tensor
        size = tensor.numel() * tensor.element_size()
        if shard and shard_size + size > shard_bytes:
            written = _flush(shard, out, written)
            shard, shard_size = {}, 0
        shard[name] = tensor
        shard_size += size
    return _flush(shard, out, written) if shard else written


def _flush(shard: dict, out: Path, written: int) -> int:
    save_file(shard, str(out / f"model-{written + 1:05d}.safetensors"), metadata={"format": "pt"})
    return written + 1


if __name__ == "__main__":
    copy_through([Path(p) for p in sys.argv[3:]], Path(sys.argv[1]), int(sys.argv[2]))
