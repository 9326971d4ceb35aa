"""Checkpoint averages (training_platform/merging/averaging.py): every tensor equals torch's weighted sum of the
checkpoints, the result loads and generates with transformers, inputs that differ are refused before any weight is
read, and averaging ten checkpoints keeps the process's peak resident memory below three checkpoints' size."""

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch
from safetensors.numpy import load_file as load_numpy
from safetensors.numpy import save_file as save_numpy
from safetensors.torch import load_file, save_file

from training_platform.merging.averaging import average_checkpoints, bfloat16_to_float32, float32_to_bfloat16

REPO = Path(__file__).resolve().parents[2]
STEPS = (10, 20, 30, 40)
SWA = [1 / 4] * 4
# An EMA with decay 0.5 started at the first checkpoint: ema = 0.5 * ema + 0.5 * checkpoint, step after step.
EMA = [0.5**3, 0.5**3, 0.5**2, 0.5]
TRAINING_STATE = ("optimizer.pt", "scheduler.pt", "rng_state_0.pth", "trainer_state.json", "training_args.bin")


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory) -> dict[str, tuple[list[Path], list[dict[str, torch.Tensor]]]]:
    """Four perturbed copies of a tiny Qwen2, saved by transformers in float32 and in bfloat16 (checkpoint-20 in
    several shards), with their state dicts; each checkpoint also holds training state and its own chat template."""
    from transformers import AutoModelForCausalLM, Qwen2Config

    torch.manual_seed(0)
    config = Qwen2Config(vocab_size=1000, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=128,
                         tie_word_embeddings=False)  # fmt: skip
    model = AutoModelForCausalLM.from_config(config)
    base = {name: tensor.clone() for name, tensor in model.state_dict().items()}
    root = tmp_path_factory.mktemp("checkpoints")
    saved = {"float32": ([], []), "bfloat16": ([], [])}
    for step in STEPS:
        model.load_state_dict({name: tensor + 0.01 * torch.randn_like(tensor) for name, tensor in base.items()})
        for dtype, (directories, states) in saved.items():
            directory = root / dtype / f"checkpoint-{step}"
            model.to(getattr(torch, dtype)).save_pretrained(directory, max_shard_size="200KB" if step == 20 else "1GB")
            states.append({name: tensor.clone() for name, tensor in model.state_dict().items()})
            (directory / "chat_template.jinja").write_text(f"template of step {step}")
            for name in TRAINING_STATE:
                (directory / name).write_bytes(b"training state")
            directories.append(directory)
            model.to(torch.float32)
    assert len(list(saved["float32"][0][1].glob("model-*-of-*.safetensors"))) > 2
    return saved


def load_output(directory: Path) -> dict[str, torch.Tensor]:
    """The averaged tensors, read with safetensors itself: every shard the index names, or model.safetensors."""
    index = directory / "model.safetensors.index.json"
    shards = set(json.loads(index.read_text())["weight_map"].values()) if index.exists() else {"model.safetensors"}
    return {name: tensor for shard in shards for name, tensor in load_file(directory / shard).items()}


def weighted_sum(
    states: list[dict[str, torch.Tensor]], weights: list[float], dtype: torch.dtype = torch.float32
) -> dict[str, torch.Tensor]:
    """torch's weighted sum, computed in `dtype` whatever the checkpoints' own."""
    return {
        name: sum(w * state[name].to(dtype) for w, state in zip(weights, states, strict=True)) for name in states[0]
    }


@pytest.mark.parametrize("weights", [SWA, EMA], ids=["swa", "ema"])
def test_every_tensor_is_the_weighted_sum_of_the_checkpoints(checkpoints, tmp_path, weights):
    directories, states = checkpoints["float32"]
    calls = []
    average_checkpoints(directories, weights, tmp_path / "average", progress=lambda done, total: calls.append(done))

    averaged = load_output(tmp_path / "average")
    expected = weighted_sum(states, weights)
    assert sorted(averaged) == sorted(expected)
    for name, tensor in expected.items():
        assert averaged[name].dtype == torch.float32
        torch.testing.assert_close(averaged[name], tensor, atol=1e-6, rtol=0, msg=name)
    assert calls == list(range(len(expected) + 1))  # 0, then one call per tensor


@pytest.mark.parametrize("weights", [SWA, EMA], ids=["swa", "ema"])
def test_bfloat16_checkpoints_average_to_the_rounded_float32_sum(checkpoints, tmp_path, weights):
    directories, states = checkpoints["bfloat16"]
    average_checkpoints(directories, weights, tmp_path / "average")

    averaged = load_output(tmp_path / "average")
    for name, tensor in weighted_sum(states, weights).items():
        # Weights that are powers of two keep torch's float32 sum of bfloat16 values exact: both round it to
        # nearest even, so they agree bit for bit.
        assert averaged[name].dtype == torch.bfloat16
        assert torch.equal(averaged[name], tensor.to(torch.bfloat16)), name


def test_a_requested_dtype_converts_the_weights_and_the_config(checkpoints, tmp_path):
    directories, states = checkpoints["float32"]
    average_checkpoints(directories, EMA, tmp_path / "average", dtype="bfloat16")

    averaged = load_output(tmp_path / "average")
    for name, tensor in weighted_sum(states, EMA, torch.float64).items():
        # The sum of float32 values in float64, rounded to float32 then to bfloat16, both to nearest even. (torch's
        # float32 sum differs from it in a few elements of 200,000: rounded once more, it can fall on the other
        # side of a bfloat16 halfway point.)
        assert averaged[name].dtype == torch.bfloat16
        assert torch.equal(averaged[name], tensor.float().to(torch.bfloat16)), name
    assert json.loads((tmp_path / "average" / "config.json").read_text())["dtype"] == "bfloat16"


def test_the_average_loads_with_transformers_and_generates(checkpoints, tmp_path):
    from transformers import AutoModelForCausalLM

    directories, states = checkpoints["float32"]
    target = tmp_path / "average"
    average_checkpoints(directories, SWA, target, max_shard_bytes=300_000)

    shards = sorted(path.name for path in target.glob("*.safetensors"))
    assert len(shards) > 2 and shards[0] == f"model-00001-of-{len(shards):05d}.safetensors"
    index = json.loads((target / "model.safetensors.index.json").read_text())
    averaged = load_output(target)
    assert index["metadata"]["total_size"] == sum(tensor.nbytes for tensor in averaged.values())
    assert set(index["weight_map"]) == set(states[0])
    # The last checkpoint's model files, none of its training state.
    assert (target / "chat_template.jinja").read_text() == "template of step 40"
    assert (target / "config.json").read_text() == (directories[-1] / "config.json").read_text()
    assert (target / "generation_config.json").exists()
    assert not any((target / name).exists() for name in TRAINING_STATE)

    model = AutoModelForCausalLM.from_pretrained(target)
    for name, tensor in model.state_dict().items():
        assert torch.equal(tensor, averaged[name]), name  # loaded, not initialised afresh
    prompt = torch.tensor([[1, 2, 3, 4]])
    generated = model.generate(prompt, max_new_tokens=5, min_new_tokens=5, do_sample=False)
    assert generated.shape == (1, 9) and torch.equal(generated[:, :4], prompt)


def test_integer_tensors_are_copied_from_the_last_checkpoint_and_float16_is_averaged(tmp_path):
    inputs = []
    for step in (1, 2):
        inputs.append(tmp_path / f"checkpoint-{step}")
        inputs[-1].mkdir()
        tensors = {
            "position_ids": torch.arange(6) * step,
            "scale": torch.full((3, 2), float(step), dtype=torch.float16),
        }
        save_file(tensors, inputs[-1] / "model.safetensors", metadata={"format": "pt"})
    average_checkpoints(inputs, [0.25, 0.75], tmp_path / "average")

    averaged = load_file(tmp_path / "average" / "model.safetensors")
    assert torch.equal(averaged["position_ids"], torch.arange(6) * 2)
    assert torch.equal(averaged["scale"], torch.full((3, 2), 1.75, dtype=torch.float16))


def test_float32_to_bfloat16_rounds_like_torch():
    bits = np.random.default_rng(0).integers(0, 2**32, size=1_000_000, dtype=np.uint64).astype(np.uint32)
    # Ties rounding down and up, the largest finite values (which round to infinity), infinities, zeros, subnormals.
    edges = [0x3F808000, 0x3F818000, 0x3F807FFF, 0x7F7FFFFF, 0x7F7F8000, 0x7F800000, 0xFF800000, 0, 0x80000000, 0x8000]
    values = np.concatenate([bits, np.array(edges, np.uint32)]).view(np.float32)
    ours = float32_to_bfloat16(values)
    theirs = torch.from_numpy(values).to(torch.bfloat16).view(torch.uint16).numpy()
    nan = np.isnan(values)
    assert nan.sum() > 1000 and np.isnan(bfloat16_to_float32(ours[nan])).all()
    np.testing.assert_array_equal(ours[~nan], theirs[~nan])
    np.testing.assert_array_equal(bfloat16_to_float32(theirs), torch.from_numpy(theirs).view(torch.bfloat16).float())


def write_checkpoint(directory: Path, tensors: dict[str, np.ndarray]) -> Path:
    directory.mkdir(parents=True)
    save_numpy(tensors, directory / "model.safetensors", metadata={"format": "pt"})
    return directory


UP_PROJ = "model.layers.0.mlp.up_proj.weight"
FIRST = {"model.norm.weight": np.zeros(8, np.float32), UP_PROJ: np.zeros((64, 256), np.float32)}


@pytest.mark.parametrize(
    ("second", "message"),
    [
        ({**FIRST, UP_PROJ: np.zeros((64, 128), np.float32)},
         "checkpoint-20: model.layers.0.mlp.up_proj.weight has shape [64, 128], checkpoint-10 has [64, 256]"),
        ({**FIRST, "model.norm.weight": np.zeros(8, np.float16)},
         "checkpoint-20: model.norm.weight has dtype F16, checkpoint-10 has F32"),
        ({UP_PROJ: FIRST[UP_PROJ]}, "checkpoint-20 has no tensor model.norm.weight, which checkpoint-10 has"),
        ({**FIRST, "lm_head.weight": np.zeros((4, 8), np.float32)},
         "checkpoint-20 has a tensor lm_head.weight, which checkpoint-10 has not"),
    ],
    ids=["shape", "dtype", "missing", "extra"],
)  # fmt: skip
def test_checkpoints_that_differ_are_refused_before_anything_is_written(tmp_path, second, message):
    inputs = [
        write_checkpoint(tmp_path / "checkpoint-10", FIRST),
        write_checkpoint(tmp_path / "checkpoint-20", second),
        write_checkpoint(tmp_path / "checkpoint-30", FIRST),
    ]
    with pytest.raises(ValueError) as refused:
        average_checkpoints(inputs, [1 / 3] * 3, tmp_path / "average")
    assert str(refused.value) == message
    assert not (tmp_path / "average").exists()


def test_a_directory_without_safetensors_weights_is_named(tmp_path):
    good = write_checkpoint(tmp_path / "checkpoint-10", {"w": np.zeros(4, np.float32)})
    empty = tmp_path / "checkpoint-20"
    empty.mkdir()
    (empty / "config.json").write_text("{}")
    (empty / "pytorch_model.bin").write_bytes(b"not safetensors")
    with pytest.raises(ValueError, match=f"{empty} has no safetensors weights"):
        average_checkpoints([good, empty], [0.5, 0.5], tmp_path / "average")
    with pytest.raises(ValueError, match="2 weights for 1 checkpoints"):
        average_checkpoints([good], [0.5, 0.5], tmp_path / "average")
    assert not (tmp_path / "average").exists()


# The child's own peak is VmHWM, the high-water mark of its address space: ru_maxrss would report the pytest
# process's, since Linux carries the largest resident size of the address space replaced by exec into it.
AVERAGE_IN_A_PROCESS = """
import json, re, sys, time
from pathlib import Path
from training_platform.merging.averaging import average_checkpoints
inputs = [Path(path) for path in sys.argv[1:-1]]
started = time.monotonic()
average_checkpoints(inputs, [1 / len(inputs)] * len(inputs), Path(sys.argv[-1]))
seconds = time.monotonic() - started
peak = int(re.search(r"VmHWM:\\s+(\\d+) kB", Path("/proc/self/status").read_text()).group(1)) * 1024
print(json.dumps({"peak_bytes": peak, "seconds": seconds, "torch": "torch" in sys.modules}))
"""


@pytest.mark.slow
def test_averaging_ten_checkpoints_holds_less_than_three_in_memory(tmp_path):
    # About 21M float32 parameters (84 MB a checkpoint): an embedding of 8.4M and twelve 1024x1024 matrices.
    rng = np.random.default_rng(0)
    base = {"model.embed_tokens.weight": rng.standard_normal((16384, 512), np.float32)}
    base |= {f"model.layers.{i}.mlp.weight": rng.standard_normal((1024, 1024), np.float32) for i in range(12)}
    inputs = [
        write_checkpoint(
            tmp_path / f"checkpoint-{step}", {name: value + np.float32(step) for name, value in base.items()}
        )
        for step in range(10)
    ]
    checkpoint_bytes = (inputs[0] / "model.safetensors").stat().st_size

    started = time.monotonic()
    result = subprocess.run([sys.executable, "-c", AVERAGE_IN_A_PROCESS, *map(str, inputs), str(tmp_path / "average")],
                            cwd=REPO, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    measured = json.loads(result.stdout.strip().splitlines()[-1])
    peak_mib, checkpoint_mib = measured["peak_bytes"] / 2**20, checkpoint_bytes / 2**20
    total_seconds = time.monotonic() - started
    print(f"peak RSS {peak_mib:.1f} MiB averaging ten checkpoints of {checkpoint_mib:.1f} MiB, "
          f"in {measured['seconds']:.1f} s ({total_seconds:.1f} s with the interpreter's start)")  # fmt: skip
    assert measured["peak_bytes"] < 3 * checkpoint_bytes
    assert not measured["torch"]

    averaged = load_numpy(tmp_path / "average" / "model.safetensors")
    for name, value in base.items():
        expected = sum((value + np.float32(step)).astype(np.float64) for step in range(10)) / 10
        np.testing.assert_allclose(averaged[name], expected.astype(np.float32), atol=1e-6, rtol=0, err_msg=name)
