"""The server's header-only checks: which tiny models (saved by transformers, adapters saved by peft) fit together,
and the one sentence naming what differs when they do not."""

import json
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.surgery import TINY_QWEN2
from training_platform.merging.compatibility import (
    IncompatibleModels,
    ModelSignature,
    adapter_problem,
    first_difference,
    model_signature,
)


def _save_model(directory: Path, config_class: str = "Qwen2Config", dtype=None, seed: int = 0, **overrides) -> Path:
    import torch
    import transformers
    from transformers import AutoModelForCausalLM

    torch.manual_seed(seed)
    config = getattr(transformers, config_class)(**{**TINY_QWEN2, **overrides})
    model = AutoModelForCausalLM.from_config(config)
    if dtype is not None:
        model = model.to(dtype)
    model.save_pretrained(directory)
    return directory


def _save_adapter(base: Path, directory: Path, target_modules: list[str]) -> Path:
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(base)
    adapted = get_peft_model(model, LoraConfig(r=4, target_modules=target_modules, task_type="CAUSAL_LM"))
    adapted.save_pretrained(directory, save_embedding_layers=False)  # the LoRA matrices alone
    return directory


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> dict[str, Path]:
    import torch

    root = tmp_path_factory.mktemp("models")
    paths = {
        "qwen": _save_model(root / "qwen"),
        "qwen_other_seed": _save_model(root / "qwen_other_seed", seed=1),
        "qwen_wide_mlp": _save_model(root / "qwen_wide_mlp", intermediate_size=192),
        "qwen_wide": _save_model(root / "qwen_wide", hidden_size=96, num_attention_heads=3),
        "qwen_3_layers": _save_model(root / "qwen_3_layers", num_hidden_layers=3),
        "qwen_tied": _save_model(root / "qwen_tied", tie_word_embeddings=True),
        "qwen_bf16": _save_model(root / "qwen_bf16", dtype=torch.bfloat16),
        "llama": _save_model(root / "llama", "LlamaConfig"),
    }
    # The same model as "qwen", in shards of about 100 kB (its embedding alone is 256 kB).
    from transformers import AutoModelForCausalLM

    paths["qwen_sharded"] = root / "qwen_sharded"
    AutoModelForCausalLM.from_pretrained(paths["qwen"]).save_pretrained(paths["qwen_sharded"], max_shard_size="100KB")
    paths["adapter"] = _save_adapter(paths["qwen"], root / "adapter", ["q_proj", "v_proj", "embed_tokens"])
    paths["adapter_wide"] = _save_adapter(paths["qwen_wide"], root / "adapter_wide", ["q_proj", "v_proj"])
    paths["adapter_3_layers"] = _save_adapter(paths["qwen_3_layers"], root / "adapter_3_layers", ["up_proj"])
    return paths


def _signature(paths, name) -> tuple[str, ModelSignature]:
    return name, model_signature(paths[name])


def test_models_of_one_config_are_compatible_whatever_their_weights_and_dtypes(models):
    assert first_difference(_signature(models, "qwen"), _signature(models, "qwen_other_seed")) is None
    assert first_difference(_signature(models, "qwen"), _signature(models, "qwen_bf16")) is None
    # A tied model has no lm_head.weight of its own: not a difference.
    assert first_difference(_signature(models, "qwen"), _signature(models, "qwen_tied")) is None


def test_the_first_differing_shape_is_named_with_both_shapes(models):
    message = first_difference(_signature(models, "qwen"), _signature(models, "qwen_wide_mlp"))
    assert message == "model.layers.0.mlp.down_proj.weight is [64, 128] in qwen, [64, 192] in qwen_wide_mlp"
    message = first_difference(_signature(models, "qwen"), _signature(models, "qwen_wide"))
    assert message == "lm_head.weight is [1000, 64] in qwen, [1000, 96] in qwen_wide"  # in name order


def test_a_tensor_in_one_model_only_is_named_whichever_side_has_it(models):
    message = first_difference(_signature(models, "qwen_3_layers"), _signature(models, "qwen"))
    assert message == "qwen has no tensor model.layers.2.input_layernorm.weight, which qwen_3_layers has"
    message = first_difference(_signature(models, "qwen"), _signature(models, "qwen_3_layers"))
    assert message == "qwen has no tensor model.layers.2.input_layernorm.weight, which qwen_3_layers has"


def test_another_architecture_is_named_before_any_tensor(models):
    message = first_difference(_signature(models, "qwen"), _signature(models, "llama"))
    assert message == "llama is a LlamaForCausalLM, qwen a Qwen2ForCausalLM"


def test_a_sharded_model_has_the_signature_of_the_same_model_unsharded(models):
    assert not (models["qwen_sharded"] / "model.safetensors").exists()
    index = json.loads((models["qwen_sharded"] / "model.safetensors.index.json").read_text())
    assert len(set(index["weight_map"].values())) > 1
    assert model_signature(models["qwen_sharded"]) == model_signature(models["qwen"])


def test_bfloat16_headers_are_read_without_torch(models):
    """The server imports no torch for these checks: run in a fresh interpreter, torch stays unimported."""
    script = (
        "import sys; from pathlib import Path\n"
        "from training_platform.merging.compatibility import model_signature\n"
        f"signature = model_signature(Path({str(models['qwen_bf16'])!r}))\n"
        "print(signature.tensors['model.embed_tokens.weight'], 'torch' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.split("\n")[0] == "('BF16', (1000, 64)) False"


def test_unreadable_model_directories_are_refused_naming_the_directory(tmp_path, models):
    (tmp_path / "config.json").write_text((models["qwen"] / "config.json").read_text())
    with pytest.raises(IncompatibleModels, match=f"^{tmp_path} has no safetensors weights"):
        model_signature(tmp_path)
    with pytest.raises(IncompatibleModels, match=f"^{tmp_path / 'nothing'} has no config.json$"):
        model_signature(tmp_path / "nothing")

    (tmp_path / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {"a": "model-1.safetensors"}}))
    with pytest.raises(IncompatibleModels, match="names the shard model-1.safetensors, which is missing"):
        model_signature(tmp_path)
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {"a": "../qwen/x"}}))
    with pytest.raises(IncompatibleModels, match="names a shard outside its directory"):
        model_signature(tmp_path)
    too_many = {f"t{i}": f"model-{i}.safetensors" for i in range(1001)}
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps({"weight_map": too_many}))
    with pytest.raises(IncompatibleModels, match="names 1001 shards; at most 1000 are read"):
        model_signature(tmp_path)


def test_a_header_over_100_mb_is_refused_before_it_is_read(tmp_path, models):
    (tmp_path / "config.json").write_text((models["qwen"] / "config.json").read_text())
    (tmp_path / "model.safetensors").write_bytes(struct.pack("<Q", 200_000_000) + b"{}")
    with pytest.raises(IncompatibleModels, match="is not a readable safetensors file: .*header too large"):
        model_signature(tmp_path)


def test_an_adapter_made_for_the_base_fits_it(models):
    assert adapter_problem(models["qwen"], models["adapter"]) is None
    assert adapter_problem(models["qwen_other_seed"], models["adapter"]) is None


def test_an_adapter_for_another_shape_names_the_first_module_that_differs(models):
    message = adapter_problem(models["qwen"], models["adapter_wide"])
    assert message == "the adapter's model.layers.0.self_attn.q_proj expects a [96, 96] weight; the base has [64, 64]"
    message = adapter_problem(models["qwen"], models["adapter_3_layers"])
    assert message == "the base has no model.layers.2.mlp.up_proj.weight"
    # The embedding's LoRA product is transposed to its weight: [1000, 64] against the wide base's [1000, 96].
    message = adapter_problem(models["qwen_wide"], models["adapter"])
    assert message == "the adapter's model.embed_tokens expects a [1000, 64] weight; the base has [1000, 96]"


def test_an_adapter_without_its_files_or_a_base_without_weights_is_named(tmp_path, models):
    adapter = tmp_path / "adapter"
    adapter.mkdir()
    (adapter / "adapter_config.json").write_text((models["adapter"] / "adapter_config.json").read_text())
    assert adapter_problem(models["qwen"], adapter) == f"{adapter} has no adapter_model.safetensors"
    assert adapter_problem(models["qwen"], tmp_path) == f"{tmp_path} has no adapter_config.json"
    assert adapter_problem(tmp_path, models["adapter"]) == f"{tmp_path} has no config.json"
