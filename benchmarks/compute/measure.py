"""Train a model from a config for a few steps and report its peak memory, as JSON on stdout.

Run in a fresh process per configuration: `python -m benchmarks.compute.measure '<json config>'`.
On CPU the peak is the kernel's high-water mark of resident memory (VmHWM), reset right before the
model is built, minus what was resident then; on CUDA it is torch.cuda.max_memory_allocated (and
max_memory_reserved), with the CUDA context (device memory in use right after initialisation that the
allocator did not reserve) reported beside it.

The step is the one of the engine named in the config:
- `plain`: forward with labels (the modeling code's loss over the full logits), backward, torch.optim.AdamW
  (PyTorch's default implementation unless `optimizer_implementation` says otherwise);
- `trl`: TRL's training step as its SFT and DPO trainers compute it: the model patched with TRL's fused LM
  head (`add_fused_lm_head`, the outputs SFTTrainer asks for), the loss from the per-token log-probabilities;
  DPO scores chosen and rejected in one concatenated batch and a frozen reference (a second copy of the model)
  without gradients; AdamW fused, transformers' default optim. SFT where the fused head has no Triton kernel
  (the CPU) runs the platform's compact head instead, as the engine does (engines/trl/lm_head.py); with
  `pack_lengths` its micro-batch is one packed sequence of samples of those lengths, each with its own position
  ids and its first label ignored, as TRL's padding-free collator gives it (engines/trl/packing.py).
"""

import json
import os
import sys
import time
from contextlib import nullcontext
from pathlib import Path


def _status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status")


def _optimizer(torch, parameters, config: dict):
    implementation = config.get("optimizer_implementation") or ("fused" if config.get("engine") == "trl" else None)
    flags = {"fused": {"fused": True}, "foreach": {"foreach": True}, "for-loop": {"foreach": False}}
    return torch.optim.AdamW(parameters, lr=1e-4, **flags.get(implementation, {}))


def _trl_loss(torch, model, reference, batch, algorithm: str, labels, packed: dict):
    """SFTTrainer.compute_loss's fused path, or DPO's sigmoid loss on the concatenated pair (TRL 1.16)."""
    log_probs = model(input_ids=batch, labels=labels, fused_lm_head=True, **packed).log_probs
    if algorithm != "dpo":
        return -log_probs.sum() / log_probs.numel()
    # With LoRA the reference is the model with its adapters off, as TRL's DPOTrainer does.
    with torch.no_grad(), model.disable_adapter() if reference is None else nullcontext():
        reference_log_probs = (reference or model)(input_ids=batch, labels=batch, fused_lm_head=True).log_probs
    margins = (log_probs - reference_log_probs).sum(-1)
    chosen, rejected = margins.chunk(2)
    return -torch.nn.functional.logsigmoid(0.1 * (chosen - rejected)).mean()


def _synchronize(torch, cuda: bool) -> None:
    if cuda:
        torch.cuda.synchronize()


def main(config: dict) -> dict:
    os.environ["HF_HUB_OFFLINE"] = "1"
    import torch
    from transformers import AutoModelForCausalLM, LlamaConfig, Qwen2Config
    from trl.trainer.utils import add_fused_lm_head

    # Imported before the peak is reset, as torch is: modules are the process's, not the step's (~30 MiB).
    from training_platform.engines.trl.lm_head import add_compact_lm_head, compact_head_applies, has_triton_kernel

    torch.manual_seed(0)
    torch.set_num_threads(config.get("threads", 1))
    cuda = torch.cuda.is_available() and not config.get("force_cpu")
    device = "cuda" if cuda else "cpu"
    engine, algorithm = config.get("engine", "plain"), config.get("algorithm", "sft")
    precision = config.get("precision", "fp32")
    dtype = torch.bfloat16 if precision == "bf16" else torch.float32
    config_class = LlamaConfig if config.get("family") == "llama" else Qwen2Config
    model_config = config_class(
        vocab_size=config["vocab_size"],
        hidden_size=config["hidden_size"],
        intermediate_size=config["intermediate_size"],
        num_hidden_layers=config["num_layers"],
        num_attention_heads=config["num_heads"],
        num_key_value_heads=config["num_kv_heads"],
        head_dim=config.get("head_dim") or config["hidden_size"] // config["num_heads"],
        max_position_embeddings=max(4096, config["seq_len"]),
        tie_word_embeddings=config.get("tie_embeddings", False),
        attn_implementation=config["attention"],
    )
    samples = config["micro_batch"] * (2 if algorithm == "dpo" else 1)  # DPO: chosen and rejected, concatenated
    lengths = config.get("pack_lengths")
    shape = (1, sum(lengths)) if lengths else (samples, config["seq_len"])
    batch = torch.randint(0, config["vocab_size"], shape, device=device)
    labels, packed = batch, {}
    if lengths:
        starts = torch.tensor([0, *lengths[:-1]], device=device).cumsum(0)
        labels = batch.clone()
        labels[0, starts] = -100
        packed["position_ids"] = torch.cat([torch.arange(length, device=device) for length in lengths])[None]
    context = 0
    if cuda:
        torch.cuda.init()
        free, total = torch.cuda.mem_get_info()
        context = total - free - torch.cuda.memory_reserved()
        torch.cuda.reset_peak_memory_stats()
        before = torch.cuda.memory_allocated()
    else:
        Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM to the current resident size
        before = _status_kib("VmRSS") * 1024
    model = AutoModelForCausalLM.from_config(model_config, dtype=dtype).to(device)
    model.train()
    reference = None
    if engine == "trl":
        add_fused_lm_head(model, outputs=("log_probs", "entropy", "is_top1"))
        if algorithm == "sft" and not has_triton_kernel(device) and compact_head_applies(model):
            add_compact_lm_head(model)
        if algorithm == "dpo" and not config.get("lora_rank"):
            reference = AutoModelForCausalLM.from_config(model_config, dtype=dtype).to(device).eval()
            reference.requires_grad_(False)
            add_fused_lm_head(reference)
    if config.get("gradient_checkpointing"):
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if config.get("lora_rank"):
        from peft import LoraConfig, get_peft_model

        lora = LoraConfig(
            r=config["lora_rank"],
            lora_alpha=2 * config["lora_rank"],
            target_modules=config["lora_targets"],
            lora_dropout=config.get("lora_dropout", 0.0),
        )
        model = get_peft_model(model, lora)
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = _optimizer(torch, trainable, config)
    autocast = torch.autocast(device, dtype=torch.bfloat16, enabled=precision == "bf16-amp")
    started = 0.0
    for index in range(config.get("steps", 3)):
        if index == 1:  # the first step warms up (allocations, kernels)
            _synchronize(torch, cuda)
            started = time.perf_counter()
        with autocast:
            if engine == "trl":
                loss = _trl_loss(torch, model, reference, batch, algorithm, labels, packed)
            else:
                loss = model(input_ids=batch, labels=labels, **packed).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    _synchronize(torch, cuda)
    timed_steps = config.get("steps", 3) - 1
    result = {**config, "device": device}
    if timed_steps:
        result["tokens_per_second"] = timed_steps * batch.numel() / (time.perf_counter() - started)
    if cuda:
        result.update(
            peak_bytes=torch.cuda.max_memory_allocated() - before,
            reserved_bytes=torch.cuda.max_memory_reserved(),
            context_bytes=context,
            gpu=torch.cuda.get_device_name(0),
        )
    else:
        result["peak_bytes"] = _status_kib("VmHWM") * 1024 - before
    return result


if __name__ == "__main__":
    print(json.dumps(main(json.loads(sys.argv[1]))))
