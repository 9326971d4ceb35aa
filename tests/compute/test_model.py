"""Parameter counts from the architecture match what transformers builds, to the parameter."""

import json

import pytest
import torch
from transformers import AutoModelForCausalLM, LlamaConfig, MistralConfig, Qwen2Config

from training_platform.common.paths import OUTSIDE_ROOTS
from training_platform.compute.model import PRESETS, from_hf_config, resolve_model
from training_platform.errors import InvalidInputError

CONFIG_CLASSES = {"Qwen": Qwen2Config, "Llama": LlamaConfig, "Mistral": MistralConfig}


def hf_config(spec):
    config_class = next(cls for prefix, cls in CONFIG_CLASSES.items() if spec.name.startswith(prefix))
    return config_class(
        vocab_size=spec.vocab_size,
        hidden_size=spec.hidden_size,
        intermediate_size=spec.intermediate_size,
        num_hidden_layers=spec.num_layers,
        num_attention_heads=spec.num_heads,
        num_key_value_heads=spec.num_kv_heads,
        tie_word_embeddings=spec.tie_embeddings,
    )


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_counts_equal_the_real_architecture(name):
    spec = PRESETS[name]
    with torch.device("meta"):  # shapes only: a 72B model costs nothing
        model = AutoModelForCausalLM.from_config(hf_config(spec))
    assert spec.num_parameters == sum(p.numel() for p in model.parameters())


def test_published_sizes():
    assert PRESETS["Qwen2.5-7B"].num_parameters == 7_615_616_512
    assert PRESETS["Llama-3-8B"].num_parameters == 8_030_261_248
    assert PRESETS["Qwen2.5-0.5B"].num_parameters == 494_032_768


def test_a_local_config_json_matches_the_real_model(demo_assets):
    spec = resolve_model(str(demo_assets["model"]), [demo_assets["model"].parent])
    model = AutoModelForCausalLM.from_pretrained(demo_assets["model"])
    assert spec.num_parameters == sum(p.numel() for p in model.parameters())
    assert spec.tie_embeddings and spec.attention_bias and spec.head_dim == 32


def test_lora_parameters_count_rank_times_in_plus_out():
    spec = PRESETS["Llama-3-8B"]
    assert spec.lora_params(16, ["q_proj", "v_proj"]) == 32 * 16 * ((4096 + 4096) + (4096 + 1024))
    with pytest.raises(InvalidInputError, match="unknown module"):
        spec.lora_params(8, ["qkv"])


@pytest.mark.parametrize(
    ("config", "field", "message"),
    [
        ({"hidden_size": 64}, "model.vocab_size", "missing from the model config"),
        ({**json.loads("{}"), "vocab_size": 10, "hidden_size": 64, "intermediate_size": 128,
          "num_hidden_layers": 2, "num_attention_heads": 3}, "model", "not a multiple of num_heads"),
        ({"vocab_size": 0, "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
          "num_attention_heads": 2}, "model.vocab_size", "greater than 0"),
    ],
)  # fmt: skip
def test_bad_configs_name_the_field(tmp_path, config, field, message):
    (tmp_path / "config.json").write_text(json.dumps(config))
    with pytest.raises(InvalidInputError) as caught:
        resolve_model(str(tmp_path), [tmp_path])
    errors = {e.field: e.message for e in caught.value.errors}
    assert field in errors and message in errors[field], errors


def test_unknown_preset_or_path(tmp_path):
    with pytest.raises(InvalidInputError, match="neither a preset"):
        resolve_model(str(tmp_path / "GPT-5"), [tmp_path])
    # Outside the data roots a path is refused before anything looks at it.
    for outside in ("GPT-5", str(tmp_path), "/etc/hostname", "/nonexistent/config.json"):
        with pytest.raises(InvalidInputError) as caught:
            resolve_model(outside, [tmp_path / "data"])
        [error] = caught.value.errors
        assert error.field == "model" and error.message.endswith(OUTSIDE_ROOTS) and outside not in error.message
    assert from_hf_config({"vocab_size": 10, "hidden_size": 8, "intermediate_size": 16, "num_hidden_layers": 1,
                           "num_attention_heads": 2}, "x").num_kv_heads == 2  # fmt: skip
