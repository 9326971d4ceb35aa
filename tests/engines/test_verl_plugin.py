"""The verl plugin's CPU patches, each applied to a stand-in for the module it patches (the real runs are in
tests/api/test_verl_e2e.py and test_verl_rl_e2e.py)."""

from types import SimpleNamespace

import torch
from transformers import AutoConfig

from training_platform.engines.verl.plugin import cpu_platform


def test_the_cpu_critic_is_the_policy_under_a_value_head_with_sdpa_attention(demo_assets):
    model_module = SimpleNamespace()
    cpu_platform.critic_with_sdpa_attention(model_module)
    config = AutoConfig.from_pretrained(demo_assets["model"], num_labels=1)
    critic = model_module.load_valuehead_model(str(demo_assets["model"]), torch.float32, config, False)
    assert type(critic).__name__ == "Qwen2ForTokenClassification"
    assert critic.config._attn_implementation == "sdpa"
    assert critic(input_ids=torch.tensor([[5, 6, 7]])).logits.shape == (1, 3, 1)  # one value per token


def test_vllm_cpu_keeps_the_linear_weights_it_prepacks():
    calls = []
    utils_module = SimpleNamespace(
        dispatch_cpu_unquantized_gemm=lambda layer, remove_weight: calls.append(remove_weight)
    )
    cpu_platform.keep_vllm_cpu_linear_weights(utils_module)
    utils_module.dispatch_cpu_unquantized_gemm("layer", remove_weight=True)
    assert calls == [False]


def test_cpu_offload_never_pins_memory():
    fsdp_module = SimpleNamespace(CPUOffloadPolicy=lambda pin_memory: pin_memory)
    cpu_platform.unpinned_cpu_offload(fsdp_module)
    assert fsdp_module.CPUOffloadPolicy(pin_memory=True) is False
