"""The offline demo: a tokenizer that reloads identically, valid datasets, and an idempotent install."""

import torch
from safetensors.torch import load_file
from transformers import AutoModelForCausalLM, AutoModelForSequenceClassification, AutoTokenizer

from training_platform.datafiles.formats import validate_file
from training_platform.demo.install import DEMO_JOB_NAME, install_demo


def test_autotokenizer_reloads_the_demo_tokenizer_with_identical_ids(demo_assets):
    tokenizer = AutoTokenizer.from_pretrained(demo_assets["model"])
    text = "What is 12 times 7? The answer is 84."
    ids = tokenizer(text).input_ids
    assert tokenizer.decode(ids) == text
    assert len(ids) < len(text) / 2  # merges were learned, not one token per character
    prompt = tokenizer.apply_chat_template(
        [{"role": "user", "content": "What is 1 plus 2?"}], add_generation_prompt=True, tokenize=False
    )
    assert prompt == "<|im_start|>user\nWhat is 1 plus 2?<|im_end|>\n<|im_start|>assistant\n"
    assert tokenizer.eos_token == "<|im_end|>" and tokenizer.pad_token_id != tokenizer.eos_token_id


def test_demo_model_is_a_small_qwen2_with_head_size_32(demo_assets):
    model = AutoModelForCausalLM.from_pretrained(demo_assets["model"])
    config = model.config
    assert config.model_type == "qwen2" and config.hidden_size // config.num_attention_heads == 32
    assert sum(p.numel() for p in model.parameters()) < 200_000


def test_the_demo_reward_model_scores_a_conversation_with_one_number(demo_assets):
    tokenizer = AutoTokenizer.from_pretrained(demo_assets["reward_model"])
    model = AutoModelForSequenceClassification.from_pretrained(demo_assets["reward_model"])
    chat = [{"role": "user", "content": "What is 3 plus 4?"}, {"role": "assistant", "content": "The answer is 7."}]
    inputs = tokenizer.apply_chat_template(chat, return_tensors="pt", return_dict=True)
    assert model(**inputs).logits.shape == (1, 1)
    base = load_file(demo_assets["model"] / "model.safetensors")
    body = load_file(demo_assets["reward_model"] / "model.safetensors")
    name = next(key for key in base if key.endswith("mlp.down_proj.weight"))
    assert torch.equal(base[name], body[name])  # the policy's body under a new head


def test_demo_datasets_are_valid_for_their_algorithms(demo_assets):
    for kind in ("sft", "dpo", "grpo", "eval"):
        report = validate_file(demo_assets[kind], kind, answer_fields=["solution"] if kind == "grpo" else ())
        assert report.ok and report.num_rows >= 32, (kind, report.problems)


def test_install_registers_everything_once(platform):
    first = install_demo(platform)
    assert len(first.created) == 7  # model, reward model, four datasets, the demo job
    assert install_demo(platform).created == []
    models = {m.name: m for m in platform.models.list_all()}
    assert sorted(models) == ["demo-tiny-qwen2", "demo-tiny-qwen2-reward"]
    assert models["demo-tiny-qwen2"].num_parameters > 100_000
    assert sorted(d.name for d in platform.datasets.list_all()) == ["demo-dpo", "demo-eval", "demo-grpo", "demo-sft"]
    assert platform.jobs.get(DEMO_JOB_NAME).status == "pending"
