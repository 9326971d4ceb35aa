"""Train a model from a config for a few steps and report its peak memory, as JSON on stdout.

Run in a fresh process per configuration: `python -m benchmarks.compute.measure '<json config>'`.
On CPU the peak is the kernel's high-water mark of resident memory (VmHWM), reset right before the
model is built, minus what was resident then; on CUDA it is torch.cuda.max_memory_allocated.
"""

import json
import os
import sys
from pathlib import Path


def _status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status")


def main(config: dict) -> dict:
    os.environ["HF_HUB_OFFLINE"] = "1"
    import torch
    from transformers import AutoModelForCausalLM, Qwen2Config

    torch.manual_seed(0)
    torch.set_num_threads(config.get("threads", 1))
    cuda = torch.cuda.is_available() and not config.get("force_cpu")
    device = "cuda" if cuda else "cpu"
    model_config = Qwen2Config(
        vocab_size=config["vocab_size"],
        hidden_size=config["hidden_size"],
        intermediate_size=config["intermediate_size"],
        num_hidden_layers=config["num_layers"],
        num_attention_heads=config["num_heads"],
        num_key_value_heads=config["num_kv_heads"],
        max_position_embeddings=max(4096, config["seq_len"]),
        tie_word_embeddings=config.get("tie_embeddings", False),
        attn_implementation=config["attention"],
    )
    batch = torch.randint(0, config["vocab_size"], (config["micro_batch"], config["seq_len"]), device=device)
    if cuda:
        torch.cuda.reset_peak_memory_stats()
        before = torch.cuda.memory_allocated()
    else:
        Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM to the current resident size
        before = _status_kib("VmRSS") * 1024
    model = AutoModelForCausalLM.from_config(model_config).to(device)
    model.train()
    if config.get("gradient_checkpointing"):
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if config.get("lora_rank"):
        from peft import LoraConfig, get_peft_model

        lora = LoraConfig(r=config["lora_rank"], lora_alpha=2 * config["lora_rank"],
                          target_modules=config["lora_targets"], lora_dropout=0.0)  # fmt: skip
        model = get_peft_model(model, lora)
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=1e-4)
    for _ in range(config.get("steps", 3)):
        loss = model(input_ids=batch, labels=batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    if cuda:
        peak = torch.cuda.max_memory_allocated() - before
    else:
        peak = _status_kib("VmHWM") * 1024 - before
    return {**config, "device": device, "peak_bytes": peak}


if __name__ == "__main__":
    print(json.dumps(main(json.loads(sys.argv[1]))))
