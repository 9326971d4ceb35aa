"""What a signal says to a person, in each language the UI speaks: a message and concrete suggestions.

Texts are keyed by the signal's kind and rule (`params["rule"]`, None for kinds with one rule) and formatted with
the signal's step, evidence and params.
"""

from dataclasses import dataclass
from typing import Literal

from training_platform.diagnostics.detectors import Signal

Language = Literal["en", "zh-CN"]
LANGUAGES: tuple[Language, ...] = ("en", "zh-CN")


@dataclass(frozen=True)
class Text:
    message: str
    suggestions: tuple[str, ...]


_LOWER_LR = {"en": "lower the learning rate (e.g. ×0.5)", "zh-CN": "降低学习率（例如 ×0.5）"}
_CLIP = {
    "en": "enable or lower gradient clipping (max_grad_norm)",
    "zh-CN": "启用或调低梯度裁剪（max_grad_norm）",
}
_GPU_MEMORY = {
    "en": "lower micro_batch_size (keep batch_size: gradient accumulation makes up the difference)",
    "zh-CN": "调小 micro_batch_size（batch_size 不变，梯度累积补足差额）",
}
_HOST_MEMORY = {
    "en": "give the job more host memory, or run fewer processes or dataloader workers per node",
    "zh-CN": "为任务分配更多主机内存，或减少每个节点的进程数、dataloader worker 数",
}

TEXTS: dict[tuple[str, str | None], dict[Language, Text]] = {
    ("non_finite", None): {
        "en": Text(
            "{keys} not finite (NaN or Inf) at step {step}",
            (
                "pause the job and resume from the newest checkpoint before step {step}",
                f"{_LOWER_LR['en']}, and {_CLIP['en']}",
                "with fp16, switch to bf16 or fp32: fp16 overflows above 65504",
            ),
        ),
        "zh-CN": Text(
            "第 {step} 步 {keys} 出现非有限值（NaN 或 Inf）",
            (
                "暂停任务，从第 {step} 步之前最新的检查点恢复",
                f"{_LOWER_LR['zh-CN']}，并{_CLIP['zh-CN']}",
                "若使用 fp16，改用 bf16 或 fp32：fp16 超过 65504 即溢出",
            ),
        ),
    },
    ("kl_explosion", "ceiling"): {
        "en": Text(
            "KL {kl:.4g} at step {step} is above its ceiling {limit:.4g}: the policy has moved far from the reference",
            ("raise the KL coefficient (kl_coef)", _LOWER_LR["en"], "lower clip_ratio or ppo_epochs for smaller steps"),
        ),
        "zh-CN": Text(
            "第 {step} 步 KL 为 {kl:.4g}，超过上限 {limit:.4g}：策略已远离参考模型",
            ("提高 KL 系数（kl_coef）", _LOWER_LR["zh-CN"], "调小 clip_ratio 或 ppo_epochs，让每步更新更小"),
        ),
    },
    ("kl_explosion", "max_ceiling"): {
        "en": Text(
            "largest per-token KL {kl_max:.4g} at step {step} is above {limit:.4g}: some tokens drifted far",
            ("raise the KL coefficient (kl_coef)", _LOWER_LR["en"], "look at the longest responses of recent steps"),
        ),
        "zh-CN": Text(
            "第 {step} 步单 token 最大 KL 为 {kl_max:.4g}，超过 {limit:.4g}：部分 token 已大幅偏离",
            ("提高 KL 系数（kl_coef）", _LOWER_LR["zh-CN"], "检查最近几步中最长的回复"),
        ),
    },
    ("kl_explosion", "jump"): {
        "en": Text(
            "KL {kl:.4g} at step {step} is more than {limit:.4g}× its recent median {median_kl:.4g}",
            ("raise the KL coefficient (kl_coef)", _LOWER_LR["en"], "check the batch of this step for odd prompts"),
        ),
        "zh-CN": Text(
            "第 {step} 步 KL 为 {kl:.4g}，超过近期中位数 {median_kl:.4g} 的 {limit:.4g} 倍",
            ("提高 KL 系数（kl_coef）", _LOWER_LR["zh-CN"], "检查该步批次中是否有异常 prompt"),
        ),
    },
    ("reward_collapse", "std"): {
        "en": Text(
            "reward_std below {limit:.3g} for {steps} steps since step {since}: every response of a prompt gets the "
            "same reward, so GRPO has nothing to learn from",
            (
                "raise the sampling temperature or rollout_n for more varied responses",
                "give partial credit in the reward function instead of all-or-nothing",
                "mix in prompts the model sometimes, but not always, solves",
            ),
        ),
        "zh-CN": Text(
            "自第 {since} 步起连续 {steps} 步 reward_std 低于 {limit:.3g}："
            "同一 prompt 的所有回复奖励相同，GRPO 无从学习",
            (
                "提高采样温度或 rollout_n，让回复更多样",
                "让奖励函数给部分分，而不是非对即错",
                "加入模型有时能答对、有时答错的 prompt",
            ),
        ),
    },
    ("reward_collapse", "mean_drop"): {
        "en": Text(
            "smoothed reward_mean fell to {smoothed_reward_mean:.4g} at step {step}, more than {limit:.0%} below its "
            "best {best_smoothed_reward_mean:.4g} (step {best_step})",
            (
                "roll back to the checkpoint nearest step {best_step}",
                f"{_LOWER_LR['en']}, or raise kl_coef",
                "read recent responses for reward hacking or degenerate output",
            ),
        ),
        "zh-CN": Text(
            "第 {step} 步平滑后的 reward_mean 降至 {smoothed_reward_mean:.4g}，比最佳值 {best_smoothed_reward_mean:.4g}"
            "（第 {best_step} 步）低 {limit:.0%} 以上",
            (
                "回退到最接近第 {best_step} 步的检查点",
                f"{_LOWER_LR['zh-CN']}，或提高 kl_coef",
                "查看最近的回复，排查奖励投机（reward hacking）或退化输出",
            ),
        ),
    },
    ("grad_explosion", None): {
        "en": Text(
            "grad_norm above {limit:.4g} for {steps} steps since step {since} (max {peak_grad_norm:.4g})",
            (_LOWER_LR["en"], _CLIP["en"], "add or lengthen the learning-rate warmup (warmup_ratio)"),
        ),
        "zh-CN": Text(
            "自第 {since} 步起连续 {steps} 步 grad_norm 高于 {limit:.4g}（最大 {peak_grad_norm:.4g}）",
            (_LOWER_LR["zh-CN"], _CLIP["zh-CN"], "增加或延长学习率预热（warmup_ratio）"),
        ),
    },
    ("grad_vanishing", None): {
        "en": Text(
            "grad_norm below {limit:.3g} for {steps} steps since step {since}: the weights have stopped moving",
            (
                "check that the loss covers some tokens (labels not all masked) and that weights are trainable",
                "in GRPO, identical rewards within every group give zero advantages: see reward_std",
                "raise the learning rate if it has decayed too early",
            ),
        ),
        "zh-CN": Text(
            "自第 {since} 步起连续 {steps} 步 grad_norm 低于 {limit:.3g}：权重已不再更新",
            (
                "检查 loss 是否覆盖了 token（标签没有被全部屏蔽），可训练参数是否被冻结",
                "GRPO 中若每组内奖励都相同，优势为零：查看 reward_std",
                "若学习率衰减过早，适当提高学习率",
            ),
        ),
    },
    ("grad_explosion", "layer"): {
        "en": Text(
            "layer {layer}: gradient norm above {limit:.4g} in {steps} measurements in a row since step {since} "
            "(now {layer_grad_norm:.4g})",
            (
                _LOWER_LR["en"],
                _CLIP["en"],
                "look at what feeds that layer: its initialisation, or a newly added module trained from scratch",
            ),
        ),
        "zh-CN": Text(
            "层 {layer}：自第 {since} 步起连续 {steps} 次测量梯度范数高于 {limit:.4g}（当前 {layer_grad_norm:.4g}）",
            (_LOWER_LR["zh-CN"], _CLIP["zh-CN"], "检查该层的输入：其初始化，或新增的从零训练的模块"),
        ),
    },
    ("grad_vanishing", "layer"): {
        "en": Text(
            "layer {layer}: gradient norm below {limit:.3g} in {steps} measurements in a row since step {since}: "
            "it has stopped learning while the others go on",
            (
                "if the layer is frozen on purpose, turn this detector's floor down or off",
                "look for dead activations or a broken residual path before that layer",
                "raise the learning rate of that part of the model, or unfreeze it",
            ),
        ),
        "zh-CN": Text(
            "层 {layer}：自第 {since} 步起连续 {steps} 次测量梯度范数低于 {limit:.3g}：该层已停止学习，其余层仍在训练",
            (
                "若该层是有意冻结的，调低或关闭此检测器的下限",
                "检查该层之前是否有失活的激活或损坏的残差通路",
                "提高该部分模型的学习率，或解冻该层",
            ),
        ),
    },
    ("loss_plateau", None): {
        "en": Text(
            "smoothed loss {smoothed_loss:.4g} improved {improvement:.2%} over the last {window} steps "
            "(less than {limit:.2%})",
            (
                "if the learning rate has decayed, training may be done: compare the eval loss",
                "otherwise try a higher learning rate or another schedule",
                "check the data for duplicates or samples too easy to teach anything",
            ),
        ),
        "zh-CN": Text(
            "平滑后的 loss 为 {smoothed_loss:.4g}，最近 {window} 步仅改善 {improvement:.2%}（低于 {limit:.2%}）",
            (
                "若学习率已衰减，训练可能已完成：对比验证集 loss",
                "否则尝试更高的学习率或其他学习率调度",
                "检查数据中是否有重复或过于简单的样本",
            ),
        ),
    },
    ("overfitting", None): {
        "en": Text(
            "eval_loss rose {rises} evaluations in a row to {eval_loss:.4g} at step {step} while the training loss "
            "fell; the best was {best_eval_loss:.4g} at step {best_step}",
            (
                "use the checkpoint nearest step {best_step}",
                "stop early, or train fewer epochs",
                "add data or regularisation (weight_decay, LoRA dropout)",
            ),
        ),
        "zh-CN": Text(
            "eval_loss 连续 {rises} 次评估上升，第 {step} 步为 {eval_loss:.4g}，而训练 loss 仍在下降；"
            "最佳为第 {best_step} 步的 {best_eval_loss:.4g}",
            (
                "使用最接近第 {best_step} 步的检查点",
                "提前停止，或减少训练轮数",
                "增加数据或正则化（weight_decay、LoRA dropout）",
            ),
        ),
    },
    ("initial_loss", "high"): {
        "en": Text(
            "first loss {loss:.4g} at step {step} is above {limit:.4g}, the usual start for {algorithm}",
            (
                "check that the model path holds the trained checkpoint (not random weights) and its own tokenizer",
                "check the data's fields and chat template: a format the model never saw reads as noise",
                "for DPO, the reference model must be the starting policy",
            ),
        ),
        "zh-CN": Text(
            "第 {step} 步的首个 loss 为 {loss:.4g}，高于 {algorithm} 通常的起始值上限 {limit:.4g}",
            (
                "检查模型路径指向已训练的检查点（而非随机权重）及其配套的 tokenizer",
                "检查数据字段和对话模板：模型没见过的格式在它看来就是噪声",
                "DPO 的参考模型必须是起始策略模型",
            ),
        ),
    },
    ("initial_loss", "low"): {
        "en": Text(
            "first loss {loss:.4g} at step {step} is below {limit:.4g}, unusually low for {algorithm}",
            (
                "check that the loss is not computed on padding or template tokens only",
                "check the data for answers leaked into the prompts, or samples the model has already memorised",
                "for DPO, the reference model must be the starting policy",
            ),
        ),
        "zh-CN": Text(
            "第 {step} 步的首个 loss 为 {loss:.4g}，低于 {algorithm} 通常的起始值下限 {limit:.4g}",
            (
                "检查 loss 是否只计算在 padding 或模板 token 上",
                "检查数据中答案是否泄露到 prompt 中，或样本是否已被模型记住",
                "DPO 的参考模型必须是起始策略模型",
            ),
        ),
    },
    ("slow_step", None): {
        "en": Text(
            "step {step} took {step_time:.3g} s, {ratio:.1f}× its median {median_step_time:.3g} s",
            (
                "if it repeats, check data loading and disk I/O",
                "check for other processes on the same GPU or host",
                "check for memory pressure (swapping) or thermal throttling",
            ),
        ),
        "zh-CN": Text(
            "第 {step} 步耗时 {step_time:.3g} 秒，是中位数 {median_step_time:.3g} 秒的 {ratio:.1f} 倍",
            (
                "若反复出现，检查数据加载和磁盘 I/O",
                "检查同一 GPU 或主机上是否有其他进程",
                "检查内存压力（swap）或过热降频",
            ),
        ),
    },
    ("throughput_drop", None): {
        "en": Text(
            "throughput {tokens_per_second:.4g} tokens/s for {steps} steps since step {since}, below {limit:.0%} of "
            "its median {median_tokens_per_second:.4g}",
            (
                "check GPU utilisation and whether another process shares the device",
                "check for longer sequences (more padding) or a slower data source",
                "check for thermal throttling, or network slowdowns on a multi-node run",
            ),
        ),
        "zh-CN": Text(
            "自第 {since} 步起连续 {steps} 步吞吐量为 {tokens_per_second:.4g} tokens/s，低于中位数 "
            "{median_tokens_per_second:.4g} 的 {limit:.0%}",
            (
                "检查 GPU 利用率，以及是否有其他进程共用该设备",
                "检查序列是否变长（padding 增多）或数据源变慢",
                "检查过热降频，多节点训练时检查网络是否变慢",
            ),
        ),
    },
    ("oom", "gpu"): {
        "en": Text(
            "out of GPU memory near step {step}: {line}",
            (_GPU_MEMORY["en"], "enable gradient_checkpointing or cpu_offload", "shorten max_length"),
        ),
        "zh-CN": Text(
            "第 {step} 步附近 GPU 显存不足：{line}",
            (_GPU_MEMORY["zh-CN"], "开启 gradient_checkpointing 或 cpu_offload", "缩短 max_length"),
        ),
    },
    ("oom", "ray"): {
        "en": Text(
            "Ray killed a worker for lack of host memory near step {step}: {line}",
            (_HOST_MEMORY["en"], "lower the rollout batch (batch_size x rollout_n) held in memory at once"),
        ),
        "zh-CN": Text(
            "第 {step} 步附近 Ray 因主机内存不足杀死了一个 worker：{line}",
            (_HOST_MEMORY["zh-CN"], "减小同时驻留内存的 rollout 批量（batch_size × rollout_n）"),
        ),
    },
    ("oom", "host"): {
        "en": Text(
            "the kernel's out-of-memory killer ended a process near step {step}: {line}",
            (_HOST_MEMORY["en"], "with cpu_offload, offload less (optimizer only) or not at all"),
        ),
        "zh-CN": Text(
            "第 {step} 步附近内核的 OOM killer 终止了一个进程：{line}",
            (_HOST_MEMORY["zh-CN"], "若开启了 cpu_offload，减少卸载（仅优化器）或关闭"),
        ),
    },
    ("nccl_timeout", "watchdog"): {
        "en": Text(
            "a collective operation timed out near step {step}: {line}",
            (
                "find the rank that failed or hung first: its log ends earlier",
                "check the network between the nodes (NCCL_SOCKET_IFNAME, InfiniBand)",
                "raise the timeout only if one step legitimately takes longer (a slow checkpoint save)",
            ),
        ),
        "zh-CN": Text(
            "第 {step} 步附近集合通信超时：{line}",
            (
                "找出最先失败或卡住的 rank：它的日志结束得更早",
                "检查节点间网络（NCCL_SOCKET_IFNAME、InfiniBand）",
                "仅当某一步确实需要更久（如检查点保存很慢）时才调大超时",
            ),
        ),
    },
    ("fatal_error", "nccl_error"): {
        "en": Text(
            "NCCL error near step {step}: {line}",
            (
                "check that every GPU is visible and healthy (nvidia-smi)",
                "run with NCCL_DEBUG=INFO to see the failing operation",
                "check that driver and NCCL versions match across nodes",
            ),
        ),
        "zh-CN": Text(
            "第 {step} 步附近发生 NCCL 错误：{line}",
            (
                "检查每块 GPU 是否可见且正常（nvidia-smi）",
                "设置 NCCL_DEBUG=INFO 重新运行，查看出错的操作",
                "检查各节点的驱动和 NCCL 版本是否一致",
            ),
        ),
    },
    ("fatal_error", "segfault"): {
        "en": Text(
            "a process crashed (segmentation fault) near step {step}: {line}",
            (
                "check that the CUDA driver, torch and compiled extensions (flash-attn, vLLM) versions match",
                "resume from the newest checkpoint; if it crashes at the same step again, suspect that step's data",
            ),
        ),
        "zh-CN": Text(
            "第 {step} 步附近进程崩溃（段错误）：{line}",
            (
                "检查 CUDA 驱动、torch 与编译扩展（flash-attn、vLLM）的版本是否匹配",
                "从最新检查点恢复；若在同一步再次崩溃，怀疑该步的数据",
            ),
        ),
    },
}


def describe(signal: Signal, language: Language = "en") -> Text:
    """The signal's message and suggestions in `language`, filled in with its step, evidence and params."""
    text = TEXTS[(signal.kind, signal.params.get("rule"))][language]
    fields = {"step": signal.step, "best_step": signal.best_step, **signal.evidence, **signal.params}
    return Text(text.message.format(**fields), tuple(line.format(**fields) for line in text.suggestions))
