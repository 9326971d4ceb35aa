"""A LoRA fold computes what the adapted model computes: the folded model's logits are peft's on the base with the
adapter, and not the base's own (the adapter's lora_B is made non-zero; peft starts it at zero, which would make
any fold look right)."""

import shutil
from pathlib import Path

import torch
from peft import LoraConfig, PeftModel, get_peft_model
from transformers import AutoModelForCausalLM, AutoTokenizer, Qwen2Config

from tests.support.surgery import TINY_QWEN2
from training_platform.merging.compatibility import model_signature
from training_platform.merging.lora import fold_lora

TARGETS = ["q_proj", "v_proj", "up_proj", "down_proj"]
INPUT_IDS = torch.tensor([[1, 5, 9, 42, 7, 3, 100, 2]])


def _save_adapter(base: Path, directory: Path) -> Path:
    torch.manual_seed(0)
    model = get_peft_model(
        AutoModelForCausalLM.from_pretrained(base), LoraConfig(r=4, lora_alpha=16, target_modules=TARGETS)
    )
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if "lora_B" in name:
                parameter.normal_(std=0.05)
    model.save_pretrained(directory)
    return directory


def _logits(model) -> torch.Tensor:
    with torch.no_grad():
        return model.eval()(input_ids=INPUT_IDS).logits


def _save_base_without_tokenizer(directory: Path) -> Path:
    torch.manual_seed(0)
    config = Qwen2Config(**TINY_QWEN2)
    AutoModelForCausalLM.from_config(config).save_pretrained(directory)
    return directory


def test_the_folded_model_computes_the_adapted_models_logits(demo_assets, tmp_path):
    base = demo_assets["model"]
    adapter = _save_adapter(base, tmp_path / "adapter")
    target = tmp_path / "folded"
    calls = []

    fold_lora(base, adapter, target, progress=lambda done, total: calls.append((done, total)))

    assert calls == [(0, 1), (1, 1)]
    assert not (target / "adapter_config.json").exists() and not (target / "adapter_model.safetensors").exists()
    folded = AutoModelForCausalLM.from_pretrained(target)
    assert folded.dtype == torch.float32
    adapted = PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(base), adapter)
    expected = _logits(adapted)
    torch.testing.assert_close(_logits(folded), expected, atol=1e-5, rtol=0)
    assert (expected - _logits(AutoModelForCausalLM.from_pretrained(base))).abs().max() > 1e-2
    # The base's tokenizer comes along, its ids unchanged.
    text = "What is 3 plus 4?"
    assert AutoTokenizer.from_pretrained(target)(text).input_ids == AutoTokenizer.from_pretrained(base)(text).input_ids


def test_a_fold_casts_to_the_dtype_asked_and_a_base_without_tokenizer_gives_none(tmp_path):
    base_without_tokenizer = _save_base_without_tokenizer(tmp_path / "base")
    adapter = _save_adapter(base_without_tokenizer, tmp_path / "adapter")
    target = tmp_path / "folded"

    fold_lora(base_without_tokenizer, adapter, target, dtype="bfloat16")

    assert {dtype for dtype, _shape in model_signature(target).tensors.values()} == {"BF16"}
    assert model_signature(target).tensors.keys() == model_signature(base_without_tokenizer).tensors.keys()
    assert not (target / "tokenizer_config.json").exists() and not (target / "tokenizer.json").exists()
    # The result is a model of its own: it loads with its base and adapter gone.
    shutil.rmtree(adapter)
    shutil.rmtree(base_without_tokenizer)
    assert AutoModelForCausalLM.from_pretrained(target).dtype == torch.bfloat16
