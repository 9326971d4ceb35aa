"""Every code the server's texts use (`common/text.py`), with its English and Chinese: one section per domain. A
template is `str.format`ted with the text's parameters; a function of them is used where the words depend on a
number (English plurals).

tests/test_text.py checks that each code has both languages and that each template uses only its parameters.
"""

from collections.abc import Callable, Mapping
from typing import Any

Template = str | Callable[[Mapping[str, Any]], str]


def _gpus(count: int) -> str:
    return "1 GPU" if count == 1 else f"{count} GPUs"


def _resumed_en(params: Mapping[str, Any]) -> str:
    where = (
        f"from {params['checkpoint']} (step {params['step']})"
        if params.get("checkpoint")
        else "from the beginning: no complete checkpoint"
    )
    rate = f" with learning_rate {params['learning_rate']}" if params.get("learning_rate") else ""
    return f"resumed by user {where}{rate}"


def _resumed_zh(params: Mapping[str, Any]) -> str:
    where = (
        f"从 {params['checkpoint']}（第 {params['step']} 步）"
        if params.get("checkpoint")
        else "从头（没有完整的检查点）"
    )
    rate = f"，learning_rate 改为 {params['learning_rate']}" if params.get("learning_rate") else ""
    return f"由用户{where}恢复{rate}"


# ---- request validation: pydantic's error types (https://docs.pydantic.dev/latest/errors/validation_errors/) ----
# The English is pydantic's own message, kept as it said it; these are the Chinese for the types a request meets.
VALIDATION: dict[str, dict[str, Template]] = {
    "missing": {"zh-CN": "缺少此字段"},
    "extra_forbidden": {"zh-CN": "不接受此字段"},
    "greater_than": {"zh-CN": "须大于 {gt}"},
    "greater_than_equal": {"zh-CN": "须大于或等于 {ge}"},
    "less_than": {"zh-CN": "须小于 {lt}"},
    "less_than_equal": {"zh-CN": "须小于或等于 {le}"},
    "multiple_of": {"zh-CN": "须为 {multiple_of} 的倍数"},
    "finite_number": {"zh-CN": "须为有限数"},
    "int_type": {"zh-CN": "须为整数"},
    "int_parsing": {"zh-CN": "须为整数"},
    "int_from_float": {"zh-CN": "须为整数，不能有小数部分"},
    "float_type": {"zh-CN": "须为数字"},
    "float_parsing": {"zh-CN": "须为数字"},
    "bool_type": {"zh-CN": "须为布尔值"},
    "bool_parsing": {"zh-CN": "须为布尔值（true 或 false）"},
    "string_type": {"zh-CN": "须为字符串"},
    "string_too_short": {"zh-CN": "至少需要 {min_length} 个字符"},
    "string_too_long": {"zh-CN": "最多 {max_length} 个字符"},
    "string_pattern_mismatch": {"zh-CN": "须符合格式 {pattern}"},
    "literal_error": {"zh-CN": "须为以下之一：{expected}"},
    "enum": {"zh-CN": "须为以下之一：{expected}"},
    "list_type": {"zh-CN": "须为列表"},
    "dict_type": {"zh-CN": "须为对象"},
    "model_type": {"zh-CN": "须为对象"},
    "model_attributes_type": {"zh-CN": "须为对象"},
    "too_short": {"zh-CN": "至少需要 {min_length} 项"},
    "too_long": {"zh-CN": "最多 {max_length} 项"},
    "json_invalid": {"zh-CN": "不是有效的 JSON：{error}"},
    "json_type": {"zh-CN": "须为 JSON"},
    "value_error": {"zh-CN": "取值无效：{error}"},
    "assertion_error": {"zh-CN": "取值无效：{error}"},
    # contract/params.py's own type: a max_length no sample keeps a completion within.
    "sequence_too_short": {
        "zh-CN": "{max_length} 个 token 容纳不下套用对话模板的提示和可供学习的回答（模板标记本身就占 10–30 个 token）："
        "至少设为 {minimum}",
    },
}
PYDANTIC_PREFIX = "validation."

# ---- paths and files ---------------------------------------------------------------------------------------------
PATHS: dict[str, dict[str, Template]] = {
    "path.outside_roots": {
        "en": "not under the platform's data roots (PLATFORM_DATA_ROOTS)",
        "zh-CN": "不在平台的数据根目录之下（PLATFORM_DATA_ROOTS）",
    },
}

# ---- jobs: their events ------------------------------------------------------------------------------------------
JOBS: dict[str, dict[str, Template]] = {
    "job.created": {
        "en": "created {algorithm} job on engine {engine}",
        "zh-CN": "已创建 {algorithm} 任务，引擎 {engine}",
    },
    "job.created_chosen": {
        "en": "created {algorithm} job on engine {engine} (chosen for '{requested}')",
        "zh-CN": "已创建 {algorithm} 任务，引擎 {engine}（按“{requested}”选定）",
    },
    "job.template_drops": {
        "en": "the model's chat template drops what {dataset} carries (row {row}): {dropped}",
        "zh-CN": "模型的对话模板丢弃了 {dataset} 携带的内容（第 {row} 行）：{dropped}",
    },
    "job.external": {
        "en": "external run: metrics imported from {source}",
        "zh-CN": "外部运行：指标导入自 {source}",
    },
    "job.started_by_user": {"en": "started by user", "zh-CN": "由用户启动"},
    "job.resumed_by_user": {"en": _resumed_en, "zh-CN": _resumed_zh},
    "job.learning_rate_changed": {
        "en": "learning_rate {previous} -> {learning_rate} for the resume",
        "zh-CN": "恢复时 learning_rate 由 {previous} 改为 {learning_rate}",
    },
    "job.queued": {
        "en": lambda p: f"queued: waiting for {_gpus(p['gpus'])}, position {p['position']}",
        "zh-CN": "排队中：等待 {gpus} 块 GPU，排第 {position} 位",
    },
    "job.got_gpus": {"en": "got GPUs {gpus}", "zh-CN": "获得 GPU {gpus}"},
    "job.unfit": {
        "en": "cannot run: asks for {wanted} GPUs, but this server has {have} (GPUs {gpus}); ask for at most {have}",
        "zh-CN": "无法运行：需要 {wanted} 块 GPU，但本服务器只有 {have} 块（GPU {gpus}）；最多可申请 {have} 块",
    },
    "job.exported": {"en": "exported {checkpoint} to {path}", "zh-CN": "已将 {checkpoint} 导出到 {path}"},
    "job.stopped_by_user": {"en": "stopped by user", "zh-CN": "由用户停止"},
    "job.stopped_by_user_exit": {"en": "stopped by user ({exit})", "zh-CN": "由用户停止（{exit}）"},
    "job.launch_failed": {"en": "launch failed: {error}", "zh-CN": "启动失败：{error}"},
    "job.run_started": {
        "en": "attempt {attempt}: {run_mode} run {ref} started",
        "zh-CN": "第 {attempt} 次尝试：{run_mode} 运行 {ref} 已启动",
    },
    "job.run_not_ended": {
        "en": "{run_mode} run {ref} did not end when stopped",
        "zh-CN": "{run_mode} 运行 {ref} 在停止后仍未结束",
    },
    "job.reattached": {
        "en": "re-attached to {run_mode} run {ref} after a platform restart",
        "zh-CN": "平台重启后重新接管 {run_mode} 运行 {ref}",
    },
    "job.found_launch": {
        "en": "found {run_mode} run {ref} of launch {launch}, started before a platform restart",
        "zh-CN": "找到启动 {launch} 的 {run_mode} 运行 {ref}（在平台重启前启动）",
    },
    "job.hung": {
        "en": "hung: no new log line, metric or status for {quiet} s (limit {limit} s)",
        "zh-CN": "卡住：{quiet} 秒内没有新的日志行、指标或状态（上限 {limit} 秒）",
    },
    "job.last_error": {"en": "its last error: {error}", "zh-CN": "最后的错误：{error}"},
    "job.stopping": {"en": "stopping it", "zh-CN": "正在停止"},
    "job.paused_at": {"en": "paused at step {step}", "zh-CN": "已在第 {step} 步暂停"},
    "job.completed_steps": {"en": "completed {steps} steps", "zh-CN": "已完成 {steps} 步"},
    "job.completed": {"en": "completed", "zh-CN": "已完成"},
    "job.checkpoint_at": {"en": "checkpoint at step {step}", "zh-CN": "检查点位于第 {step} 步"},
    "job.no_checkpoint": {
        "en": "no checkpoint: it resumes from the start",
        "zh-CN": "没有检查点：恢复时将从头开始",
    },
    "job.lost": {"en": "lost: {what}", "zh-CN": "失联：{what}"},
    "job.lost_unwatched": {
        "en": "{run_mode} run {ref} ended while the platform was not watching it",
        "zh-CN": "{run_mode} 运行 {ref} 在平台未监视时结束",
    },
    "job.last_reported": {
        "en": "it last reported '{state}' at step {step}",
        "zh-CN": "它最后一次报告的状态是第 {step} 步的“{state}”",
    },
    "job.run_mode_missing": {
        "en": "run mode {run_mode} is not configured on this server",
        "zh-CN": "本服务器未配置运行模式 {run_mode}",
    },
}

# ---- processes: how a run ended ----------------------------------------------------------------------------------
PROCESSES: dict[str, dict[str, Template]] = {
    "process.exited": {"en": "exited with code {code}", "zh-CN": "退出码 {code}"},
    "process.killed": {"en": "killed by signal {signal}", "zh-CN": "被信号 {signal} 终止"},
    "process.unknown": {
        "en": "exit status unknown (the process was not started by this server)",
        "zh-CN": "退出状态未知（该进程不是由本服务器启动的）",
    },
}

# ---- a job's failure (jobs/failures.py): what to do about it; the actions its health findings took ----------------
JOB_FAILURES: dict[str, dict[str, Template]] = {
    "failure.exception": {
        "en": "The training raised an error. Resuming would run the same code on the same data and fail the same "
        "way: fix its cause first (clone the job with changed settings or data).",
        "zh-CN": "训练过程抛出了错误。恢复运行会以相同的代码和数据再次运行，并以同样的方式失败："
        "请先修复原因（以修改后的设置或数据克隆该任务）。",
    },
    "failure.exit": {
        "en": "The run exited with an error. Resuming would most likely fail the same way: the logs show what it did "
        "last.",
        "zh-CN": "运行以错误退出。恢复运行很可能以同样的方式失败：日志显示了它最后做了什么。",
    },
    "failure.launch": {
        "en": "The run could not be launched. Resuming would fail the same way until that is fixed.",
        "zh-CN": "无法启动运行。在修复之前，恢复运行会以同样的方式失败。",
    },
    "failure.killed": {
        "en": "Something outside the run stopped it. Resume goes on from its last complete checkpoint.",
        "zh-CN": "运行被外部终止。恢复运行将从最近的完整检查点继续。",
    },
    "failure.lost": {
        "en": "Its process or node was lost. Resume goes on from its last complete checkpoint.",
        "zh-CN": "它的进程或节点已失联。恢复运行将从最近的完整检查点继续。",
    },
    "failure.hung": {
        "en": "It was stopped because it hung. Resume goes on from its last complete checkpoint.",
        "zh-CN": "它因卡住而被停止。恢复运行将从最近的完整检查点继续。",
    },
    "failure.out_of_memory": {
        "en": "It ran out of memory. Once memory is free (another process on the GPU?), resume goes on from its last "
        "complete checkpoint; if it fails again, lower its batch size or sequence length in a clone.",
        "zh-CN": "内存不足。释放内存后（GPU 上是否有其他进程？），恢复运行将从最近的完整检查点继续；"
        "如果再次失败，请在克隆的任务中降低批大小或序列长度。",
    },
    "job.action_requested": {
        "en": "{action} requested",
        "zh-CN": lambda params: {"pause": "已请求暂停", "stop": "已请求停止"}.get(
            params["action"], f"已请求 {params['action']}"
        ),
    },
    "health_action.paused_by_trainer": {
        "en": "paused on {kind} at step {step}: the trainer stopped before saving that step",
        "zh-CN": "因第 {step} 步的 {kind} 暂停：训练器在保存该步之前停止",
    },
    "health_action.pause_requested": {
        "en": "pause requested on {kind} at step {step}",
        "zh-CN": "因第 {step} 步的 {kind} 请求暂停",
    },
    "health_action.lower_lr": {
        "en": "learning rate × {factor} requested on {kind} at step {step}",
        "zh-CN": "因第 {step} 步的 {kind} 请求将学习率 × {factor}",
    },
    "health_action.lower_lr_unsupported": {
        "en": "the {engine} engine cannot change its learning rate live: pause the job and resume it with "
        "learning_rate × {factor} ({kind} at step {step})",
        "zh-CN": "{engine} 引擎无法在运行中更改学习率：请暂停任务，并以 learning_rate × {factor} 恢复"
        "（第 {step} 步的 {kind}）",
    },
    "health_action.stopped_early": {
        "en": "stopped early on {kind} at step {step} (a checkpoint is saved as the job pauses)",
        "zh-CN": "因第 {step} 步的 {kind} 提前停止（任务暂停时会保存检查点）",
    },
    "health_action.best_step": {"en": "the best step was {step}", "zh-CN": "最佳步为第 {step} 步"},
    "health_action.not_taken": {"en": "not taken: {error}", "zh-CN": "未执行：{error}"},
}


# ---- the compute configurator: its reasons, suggestions and the explanation of each memory term ----------------
def _configurations_en(params: Mapping[str, Any]) -> str:
    chosen = (
        "the only configuration that fits"
        if params["options"] == 1
        else f"fastest of the {params['options']} configurations that fit"
    )
    return (
        f"{chosen}: {params['used']} of {params['capacity']} GiB per GPU ({params['share']}), peak at the "
        f"{params['phase']}"
    )


COMPUTE: dict[str, dict[str, Template]] = {
    "compute.fastest": {
        "en": _configurations_en,
        "zh-CN": "在 {options} 种放得下的配置中最快：每块 GPU {used} / {capacity} GiB（{share}），峰值出现在{phase}",
    },
    "compute.engine_runs": {"en": "the {engine} engine runs it", "zh-CN": "由 {engine} 引擎运行"},
    "compute.engine_runs_elsewhere": {
        "en": "the {engine} engine runs it (not on this machine: see GET /api/v1/engines)",
        "zh-CN": "由 {engine} 引擎运行（本机无法运行：见 GET /api/v1/engines）",
    },
    "compute.lora_chosen": {
        "en": "no full fine-tune fits, so the base model is frozen and LoRA adapters are trained",
        "zh-CN": "全参数微调放不下，因此冻结基座模型，只训练 LoRA 适配器",
    },
    "compute.sharded": {
        "en": "ZeRO/FSDP stage {stage} shards model states over {gpus} GPUs",
        "zh-CN": "ZeRO/FSDP 第 {stage} 阶段把模型状态分片到 {gpus} 块 GPU 上",
    },
    "compute.offloaded_optimizer": {
        "en": "optimizer states are offloaded to CPU memory: {per_gpu} GiB per GPU, {host_total} GiB of the host's "
        "{host} GiB for its {gpus_on_host} GPUs",
        "zh-CN": "优化器状态卸载到 CPU 内存：每块 GPU {per_gpu} GiB，主机上 {gpus_on_host} 块 GPU 共 {host_total} GiB"
        "（主机内存 {host} GiB）",
    },
    "compute.offloaded_all": {
        "en": "optimizer states and parameters are offloaded to CPU memory: {per_gpu} GiB per GPU, {host_total} GiB "
        "of the host's {host} GiB for its {gpus_on_host} GPUs",
        "zh-CN": "优化器状态和参数卸载到 CPU 内存：每块 GPU {per_gpu} GiB，主机上 {gpus_on_host} 块 GPU 共 "
        "{host_total} GiB（主机内存 {host} GiB）",
    },
    "compute.checkpointing_on": {
        "en": "gradient checkpointing is on: activations would not fit otherwise (costs ~1/3 more compute)",
        "zh-CN": "开启梯度检查点：否则激活值放不下（约多 1/3 的计算量）",
    },
    "compute.precision_as": {
        "en": "the {engine} engine runs {requested} as {runs}: it loads the model in bf16, so weights, gradients and "
        "AdamW moments are bf16",
        "zh-CN": "{engine} 引擎把 {requested} 按 {runs} 运行：模型以 bf16 加载，权重、梯度和 AdamW 动量都是 bf16",
    },
    "compute.split_batch": {
        "en": "{samples} samples per step cannot be split over {gpus} GPUs",
        "zh-CN": "每步 {samples} 个样本无法均分到 {gpus} 块 GPU 上",
    },
    # suggestions
    "compute.suggest.lora": {
        "en": "train LoRA (rank {rank}) instead of full fine-tuning",
        "zh-CN": "改用 LoRA（秩 {rank}）代替全参数微调",
    },
    "compute.suggest.gpus": {"en": "use {gpus} × {gpu}", "zh-CN": "使用 {gpus} × {gpu}"},
    "compute.suggest.more_gpus": {
        "en": "use {gpus} × {gpu}, sharded with ZeRO/FSDP",
        "zh-CN": "使用 {gpus} × {gpu}，以 ZeRO/FSDP 分片",
    },
    "compute.suggest.more_gpus_lora": {
        "en": "use {gpus} × {gpu} and LoRA (rank {rank}) instead of full fine-tuning",
        "zh-CN": "使用 {gpus} × {gpu}，并改用 LoRA（秩 {rank}）代替全参数微调",
    },
    "compute.suggest.shorter": {
        "en": "shorten sequences to {tokens} tokens",
        "zh-CN": "把序列缩短到 {tokens} 个 token",
    },
    "compute.suggest.shorter_lora": {
        "en": "shorten sequences to {tokens} tokens and use LoRA (rank {rank}) instead of full fine-tuning",
        "zh-CN": "把序列缩短到 {tokens} 个 token，并改用 LoRA（秩 {rank}）代替全参数微调",
    },
    "compute.suggest.larger_gpu": {
        "en": "use a larger GPU: {gpu} ({memory} GiB)",
        "zh-CN": "使用更大的 GPU：{gpu}（{memory} GiB）",
    },
    "compute.suggest.nothing": {
        "en": "nothing close fits: a smaller model, or many more and larger GPUs",
        "zh-CN": "相近的配置都放不下：换更小的模型，或使用多得多、更大的 GPU",
    },
    # what an engine's configuration panel shows instead of it
    "compute.not_shown": {
        "en": "the {engine} engine cannot run these settings: {reason}",
        "zh-CN": "{engine} 引擎无法运行这些设置：{reason}",
    },
    # what Apply does not carry into the job form
    "compute.not_carried.attention": {
        "en": "attention {attention}: not a job parameter; the engine chooses its attention kernel itself (the "
        "estimate assumed {attention})",
        "zh-CN": "注意力实现 {attention}：不是任务参数；引擎自行选择注意力内核（估算按 {attention} 计算）",
    },
    "compute.not_carried.hardware": {
        "en": "{gpus} × {gpu}: the machine the job runs on, not a setting of the job",
        "zh-CN": "{gpus} × {gpu}：任务运行所在的机器，而不是任务的设置",
    },
    # the peak of the step
    "compute.phase.loss_gradients": {"en": "start of backward (loss gradients)", "zh-CN": "反向传播开始时（损失梯度）"},
    "compute.phase.recompute": {"en": "recomputing a layer", "zh-CN": "重算某一层时"},
    "compute.phase.layer": {"en": "backward of layer {layer}", "zh-CN": "第 {layer} 层的反向传播"},
    "compute.phase.optimizer_step": {"en": "optimizer step", "zh-CN": "优化器更新步"},
    "compute.phase.generation": {"en": "generation", "zh-CN": "生成阶段"},
    # what each category of memory is
    "compute.category.weights": {"en": "model parameters held on each GPU", "zh-CN": "每块 GPU 上保存的模型参数"},
    "compute.category.gradients": {
        "en": "one gradient per trainable parameter (sharded from ZeRO-2)",
        "zh-CN": "每个可训练参数一个梯度（从 ZeRO-2 起分片）",
    },
    "compute.category.optimizer": {
        "en": "optimizer states per trainable parameter (sharded from ZeRO-1)",
        "zh-CN": "每个可训练参数的优化器状态（从 ZeRO-1 起分片）",
    },
    "compute.category.activations": {
        "en": "what the forward pass keeps for backward, plus workspace at the step's peak",
        "zh-CN": "前向传播为反向传播保留的张量，加上该步峰值时的工作区",
    },
    "compute.category.rl_extra": {
        "en": "reference / critic / reward models and the rollout engine's reservation",
        "zh-CN": "参考模型、价值模型、奖励模型以及 rollout 引擎预留的显存",
    },
    "compute.category.overhead": {
        "en": "runtime memory outside tensors, and allocator fragmentation",
        "zh-CN": "张量之外的运行时内存，以及分配器碎片",
    },
    # each term of the estimate
    "compute.term.weights_offloaded": {
        "en": "parameters live on the CPU; the current and the prefetched module are gathered on the GPU",
        "zh-CN": "参数存放在 CPU 上；GPU 上只聚合当前模块和预取的模块",
    },
    "compute.term.weights_full": {
        "en": "{dtype} weights, one full copy per GPU",
        "zh-CN": "{dtype} 权重，每块 GPU 一份完整副本",
    },
    "compute.term.weights_sharded": {
        "en": "{dtype} weights, sharded by ZeRO-3/FSDP",
        "zh-CN": "{dtype} 权重，由 ZeRO-3/FSDP 分片",
    },
    "compute.term.autocast_weights": {
        "en": "autocast computes in bf16 from them",
        "zh-CN": "autocast 由它们以 bf16 计算",
    },
    "compute.term.gathered": {
        "en": "ZeRO-3 gathers a whole module (and its gradient) to compute it, as DeepSpeed estimates",
        "zh-CN": "ZeRO-3 计算某个模块时会聚合整个模块（及其梯度），与 DeepSpeed 的估算一致",
    },
    "compute.term.gradients_lora": {
        "en": "LoRA: only the adapters (fp32, peft's default) have {dtype} gradients",
        "zh-CN": "LoRA：只有适配器（fp32，peft 的默认）有 {dtype} 梯度",
    },
    "compute.term.gradients_full": {"en": "one {dtype} gradient per weight", "zh-CN": "每个权重一个 {dtype} 梯度"},
    "compute.term.gradients_sharded": {"en": "sharded (ZeRO-2+)", "zh-CN": "已分片（ZeRO-2 及以上）"},
    "compute.term.gradients_offloaded": {"en": "offloaded with the parameters", "zh-CN": "随参数卸载到 CPU"},
    "compute.term.optimizer_offloaded": {
        "en": "{optimizer} states ({contents}) are on the CPU",
        "zh-CN": "{optimizer} 状态（{contents}）在 CPU 上",
    },
    "compute.term.optimizer": {
        "en": "{optimizer} ({implementation}, {engine_optimizer}): {contents}",
        "zh-CN": "{optimizer}（{implementation}，{engine_optimizer}）：{contents}",
    },
    "compute.term.optimizer_sharded": {"en": "sharded (ZeRO-1+)", "zh-CN": "已分片（ZeRO-1 及以上）"},
    "compute.term.master_copy": {
        "en": "the fp32 weights are the master copy",
        "zh-CN": "fp32 权重即主副本",
    },
    "compute.term.optimizer_workspace": {
        "en": "the optimizer step is the peak: all gradients are alive and {optimizer} makes temporaries (foreach: a "
        "copy of the second moments; a fused kernel has none); activations are freed by then",
        "zh-CN": "峰值在优化器更新步：所有梯度都还在，{optimizer} 会产生临时张量（foreach：二阶动量的一份拷贝；"
        "融合内核没有）；此时激活值已释放",
    },
    "compute.term.generation": {
        "en": "TRL generates with the policy itself (model.generate, no vLLM); the last step's gradients are freed by "
        "then",
        "zh-CN": "TRL 用策略模型本身生成（model.generate，不用 vLLM）；此时上一步的梯度已释放",
    },
    "compute.term.saved_per_token": {
        "en": "{bytes} B/token saved per layer",
        "zh-CN": "每层每个 token 保存 {bytes} B",
    },
    "compute.term.eager_scores": {
        "en": "eager attention keeps the s×s scores",
        "zh-CN": "eager 注意力保留 s×s 分数矩阵",
    },
    "compute.term.no_scores": {
        "en": "{attention} attention keeps no s×s scores",
        "zh-CN": "{attention} 注意力不保留 s×s 分数矩阵",
    },
    "compute.term.fused_head": {
        "en": "TRL's fused LM head scores the labels in 4,096 × 32,768 tiles and never builds the logits (entropy and "
        "token accuracy come out of the same tiles)",
        "zh-CN": "TRL 的融合 LM head 以 4,096 × 32,768 的分块为标签打分，从不构建完整 logits（熵和 token 准确率"
        "也出自同样的分块）",
    },
    "compute.term.compact_head": {
        "en": "without Triton the TRL engine's SFT head projects only the trained positions and keeps their fp32 "
        "probabilities for backward, with the logits and one more tensor of their size at its peak",
        "zh-CN": "没有 Triton 时，TRL 引擎的 SFT head 只投影参与训练的位置，并为反向传播保留其 fp32 概率；峰值时另有 "
        "logits 及一个同样大小的张量",
    },
    "compute.term.packed": {
        "en": "samples packed into one sequence of {tokens} tokens (micro batch × mean sample, at least seq_len)",
        "zh-CN": "样本打包为一个 {tokens} token 的序列（micro batch × 平均样本长度，至少 seq_len）",
    },
    "compute.term.pack_mask": {
        "en": "{attention} attention gets a {tokens}×{tokens} block-diagonal mask for the pack",
        "zh-CN": "{attention} 注意力为打包序列使用 {tokens}×{tokens} 的块对角掩码",
    },
    "compute.term.full_logits": {
        "en": "the loss upcasts the whole logits to fp32 (forward with labels)",
        "zh-CN": "损失把全部 logits 上转为 fp32（带标签的前向）",
    },
    "compute.term.autocast_copy": {
        "en": "autocast keeps a bf16 copy of each weight for its backward",
        "zh-CN": "autocast 为反向传播保留每个权重的 bf16 副本",
    },
    "compute.term.checkpointing": {
        "en": "gradient checkpointing keeps only each layer's input and recomputes one layer at a time",
        "zh-CN": "梯度检查点只保留每层的输入，并逐层重算",
    },
    "compute.term.peak_at": {"en": "peak at the {phase}", "zh-CN": "峰值出现在{phase}"},
    "compute.term.reference": {
        "en": "frozen {dtype} reference model for the KL term / DPO's reference log-probs",
        "zh-CN": "冻结的 {dtype} 参考模型，用于 KL 项 / DPO 的参考对数概率",
    },
    "compute.term.reference_in_step": {
        "en": "its forward runs without gradients inside the step, so it keeps no activations",
        "zh-CN": "它的前向在训练步内无梯度运行，因此不保留激活值",
    },
    "compute.term.critic": {
        "en": "PPO's critic (a value model of the actor's size) with its own gradients and optimizer",
        "zh-CN": "PPO 的价值模型（与 actor 同样大小），带有自己的梯度和优化器",
    },
    "compute.term.reward_model": {"en": "bf16 reward model", "zh-CN": "bf16 奖励模型"},
    "compute.term.rollout_reservation": {
        "en": "vLLM takes this share of the GPU during rollout, while the trainer's activations are freed; counted "
        "only where it exceeds them",
        "zh-CN": "rollout 期间 vLLM 占用 GPU 的这一份额，此时训练的激活值已释放；只计超出激活值的部分",
    },
    "compute.term.overhead_cuda": {
        "en": "CUDA context and library workspaces, plus the caching allocator's fragmentation",
        "zh-CN": "CUDA 上下文和库的工作区，加上缓存分配器的碎片",
    },
    "compute.term.overhead_mps": {"en": "Metal and PyTorch runtime", "zh-CN": "Metal 和 PyTorch 运行时"},
    "compute.term.overhead_cpu": {
        "en": "none counted: the CPU figure is compared with the process's peak above its start",
        "zh-CN": "不计：CPU 上的数字与进程相对启动时的峰值比较",
    },
    # what is in the optimizer's states
    "compute.states.amp_adamw": {
        "en": "fp32 master weights + first and second moments, 4 + 4 + 4",
        "zh-CN": "fp32 主权重 + 一阶和二阶动量，4 + 4 + 4",
    },
    "compute.states.amp_adamw8bit": {
        "en": "fp32 master weights + two 8-bit moments, 4 + 1 + 1",
        "zh-CN": "fp32 主权重 + 两个 8 位动量，4 + 1 + 1",
    },
    "compute.states.amp_sgd": {"en": "fp32 master weights + momentum, 4 + 4", "zh-CN": "fp32 主权重 + 动量，4 + 4"},
    "compute.states.two_moments": {"en": "two {dtype} moments, {sizes}", "zh-CN": "两个 {dtype} 动量，{sizes}"},
    "compute.states.momentum": {"en": "{dtype} momentum", "zh-CN": "{dtype} 动量"},
    # notes and problems of an estimate
    "compute.offload_needs_cuda": {
        "en": "offloading to the CPU is only available with CUDA GPUs (DeepSpeed / FSDP)",
        "zh-CN": "只有 CUDA GPU 才能卸载到 CPU（DeepSpeed / FSDP）",
    },
    "compute.host_too_small": {
        "en": "offloading needs {needed} GiB of CPU RAM ({per_gpu} GiB per GPU × {gpus_on_host} GPUs on one host); "
        "the host has {host} GiB",
        "zh-CN": "卸载需要 {needed} GiB CPU 内存（每块 GPU {per_gpu} GiB × 一台主机上 {gpus_on_host} 块 GPU）；"
        "主机只有 {host} GiB",
    },
    "compute.host_ram": {
        "en": "CPU RAM for offloaded states: {needed} GiB ({per_gpu} GiB per GPU × {gpus_on_host} GPUs on one host) "
        "of the host's {host} GiB",
        "zh-CN": "卸载状态占用 CPU 内存 {needed} GiB（每块 GPU {per_gpu} GiB × 一台主机上 {gpus_on_host} 块 GPU），"
        "主机共 {host} GiB",
    },
    "compute.reference_lora": {
        "en": "LoRA: the reference is the base model with adapters disabled, so no second copy",
        "zh-CN": "LoRA：参考模型就是关闭适配器的基座模型，因此没有第二份副本",
    },
    "compute.kv_cache_policy": {
        "en": "KV cache for {responses} responses × {prompts} prompts of {tokens} tokens: {size} GiB, generated by "
        "the policy itself",
        "zh-CN": "{responses} 个回复 × {prompts} 个提示、每条 {tokens} token 的 KV cache：{size} GiB，"
        "由策略模型本身生成",
    },
    "compute.vllm_too_small": {
        "en": "vLLM's share ({share} GiB) cannot hold its weights ({weights} GiB), its workspace and the KV cache of "
        "one {tokens}-token sequence ({sequence} GiB)",
        "zh-CN": "vLLM 的份额（{share} GiB）容不下它的权重（{weights} GiB）、工作区和一条 {tokens} token 序列的 "
        "KV cache（{sequence} GiB）",
    },
    "compute.kv_cache_vllm": {
        "en": "KV cache for {responses} responses × {prompts} prompts of {tokens} tokens: {size} GiB; vLLM has "
        "~{room} GiB for it after its weights",
        "zh-CN": "{responses} 个回复 × {prompts} 个提示、每条 {tokens} token 的 KV cache：{size} GiB；vLLM 在放下权重后"
        "约有 {room} GiB 可用",
    },
    "compute.kv_cache_waves": {
        "en": "it will run them in several waves (slower, not out of memory)",
        "zh-CN": "它会分几批运行（更慢，但不会显存不足）",
    },
}


# ---- datasets: uploads, format detection, audits ------------------------------------------------------------------
def _invalid_rows_en(params: Mapping[str, Any]) -> str:
    listed = (
        f"; the first {params['listed']} of {params['problems']} distinct problems are listed"
        if params["listed"] < params["problems"]
        else ""
    )
    return f"{params['invalid']} of {params['total']} rows are invalid{listed}; every row is in {params['report']}"


def _invalid_rows_zh(params: Mapping[str, Any]) -> str:
    listed = (
        f"；列出了 {params['problems']} 种问题中的前 {params['listed']} 种"
        if params["listed"] < params["problems"]
        else ""
    )
    return f"{params['total']} 行中有 {params['invalid']} 行无效{listed}；每一行都在 {params['report']}"


def _rows(count: int) -> str:
    return "1 row" if count == 1 else f"{count} rows"


def _unused_columns_en(params: Mapping[str, Any]) -> str:
    what = "1 column" if params["count"] == 1 else f"{params['count']} columns"
    return f"{what} that nothing reads in this format, left out of training: {params['names']}"


DATASETS: dict[str, dict[str, Template]] = {
    "dataset.field_missing": {"en": "missing required field '{field}'", "zh-CN": "缺少必填字段“{field}”"},
    "dataset.field_empty": {"en": "field '{field}' is empty", "zh-CN": "字段“{field}”为空"},
    "dataset.field_not_text": {
        "en": "field '{field}' must be text, got {type}",
        "zh-CN": "字段“{field}”须为文本，实际为 {type}",
    },
    "dataset.rows_problem": {
        "en": "{problem}: {count} of {total} rows (rows {rows})",
        "zh-CN": "{problem}：{total} 行中有 {count} 行（第 {rows} 行）",
    },
    "dataset.rows_problem_columns": {
        "en": "{problem}: {count} of {total} rows (rows {rows}); the file's columns: {columns}",
        "zh-CN": "{problem}：{total} 行中有 {count} 行（第 {rows} 行）；文件中的列：{columns}",
    },
    "dataset.rows_invalid": {"en": _invalid_rows_en, "zh-CN": _invalid_rows_zh},
    "dataset.file_empty": {"en": "{file} is empty (0 bytes)", "zh-CN": "{file} 是空文件（0 字节）"},
    "dataset.file_no_rows": {"en": "{file} has no rows", "zh-CN": "{file} 没有数据行"},
    "dataset.no_column": {
        "en": "no column '{column}' (columns: {columns})",
        "zh-CN": "没有列“{column}”（现有的列：{columns}）",
    },
    "dataset.presets_none_for_kind": {
        "en": "no format preset reads {kind} datasets",
        "zh-CN": "没有格式预设能读取 {kind} 数据集",
    },
    "dataset.presets_several": {
        "en": "the rows fit several format presets ({presets}); name the one they are in",
        "zh-CN": "这些行符合多个格式预设（{presets}）；请指定它们所用的那一个",
    },
    "dataset.presets_one": {"en": "the rows fit the {preset} preset", "zh-CN": "这些行符合 {preset} 预设"},
    "dataset.presets_none_fit": {
        "en": "no format preset fits these {kind} rows ({tried})",
        "zh-CN": "没有格式预设符合这些 {kind} 行（{tried}）",
    },
    "dataset.media_column": {
        "en": "column '{column}' holds media: multimodal training is not supported (the rows' text alone would train, "
        "media placeholders such as <image> as text); to train on the text alone, drop it on purpose: "
        "drop_columns: [{columns}]",
        "zh-CN": "列“{column}”包含媒体：不支持多模态训练（只有行中的文本会参与训练，"
        "<image> 等媒体占位符会被当作文本）；若只训练文本，请有意丢弃这些列：drop_columns: [{columns}]",
    },
    "dataset.media_mapping": {
        "en": "names media: multimodal training is not supported",
        "zh-CN": "指向媒体：不支持多模态训练",
    },
    "dataset.kto_label": {
        "en": "column '{column}' holds true/false per answer: this is KTO-style unpaired preference data "
        "(LLaMA-Factory's kto_tag, TRL's unpaired preference), which the platform does not train: {why}. Keep the "
        "rows labelled true in a file of their own to train them as SFT.",
        "zh-CN": "列“{column}”为每个回答标注 true/false：这是 KTO 式的非成对偏好数据（LLaMA-Factory 的 kto_tag、TRL 的 "
        "unpaired preference），平台不训练这种数据：{why}。可把标为 true 的行单独存成一个文件，作为 SFT 训练。",
    },
    "dataset.kto_as_sft": {
        "en": "as SFT the answers labelled false would be trained as targets",
        "zh-CN": "作为 SFT，标为 false 的回答也会被当作目标训练",
    },
    "dataset.kto_as_dpo": {
        "en": "DPO needs a chosen and a rejected answer to the same prompt, not one answer and a label",
        "zh-CN": "DPO 需要同一提示的一个 chosen 回答和一个 rejected 回答，而不是一个回答加一个标签",
    },
    "dataset.mapping_unknown_key": {
        "en": "is not a field that {kind} datasets are read by (known: {known})",
        "zh-CN": "不是 {kind} 数据集读取的字段（已知字段：{known}）",
    },
    "dataset.mapping_no_one_format": {
        "en": "no one format reads all of {keys}: name fields of one format (see GET /datasets/kinds)",
        "zh-CN": "没有一种格式能同时读取 {keys}：请只用同一种格式的字段（见 GET /datasets/kinds）",
    },
    "dataset.mapping_unread": {
        "en": "the rows fit no format that reads it",
        "zh-CN": "这些行不符合任何读取该字段的格式",
    },
    "audit.row": {"en": "row {row}", "zh-CN": "第 {row} 行"},
    "audit.rows": {"en": "{count} rows", "zh-CN": "{count} 行"},
    "audit.rows_problem": {"en": "{where}: {problem}", "zh-CN": "{where}：{problem}"},
    "audit.wrong_type": {
        "en": "{where}: field '{field}' should be {expected}, found {found}",
        "zh-CN": "{where}：字段“{field}”应为 {expected}，实际为 {found}",
    },
    "audit.identical_pair": {
        "en": "{where}: the chosen and the rejected answer are the same (white space aside)",
        "zh-CN": "{where}：chosen 与 rejected 回答相同（不计空白）",
    },
    "audit.unused_columns": {
        "en": _unused_columns_en,
        "zh-CN": "{count} 列在此格式下不被读取，不参与训练：{names}",
    },
    "audit.exact_duplicate": {
        "en": "{count} rows have the same {field}: {excerpt}",
        "zh-CN": "{count} 行的 {field} 完全相同：{excerpt}",
    },
    "audit.near_duplicate": {
        "en": "{count} rows have nearly the same {field} (Jaccard similarity of word or character bigrams ≥ "
        "{threshold})",
        "zh-CN": "{count} 行的 {field} 几乎相同（词或字二元组的 Jaccard 相似度 ≥ {threshold}）",
    },
    "audit.semantic_duplicate": {
        "en": "{count} rows have {field}s with the same meaning (cosine ≥ {threshold})",
        "zh-CN": "{count} 行的 {field} 含义相同（余弦相似度 ≥ {threshold}）",
    },
    "audit.shorter": {
        "en": lambda p: f"{_rows(p['count'])} with a {p['field']} shorter than {p['bound']} tokens ({p['rule']})",
        "zh-CN": "{count} 行的 {field} 短于 {bound} 个 token（{rule}）",
    },
    "audit.longer": {
        "en": lambda p: f"{_rows(p['count'])} with a {p['field']} longer than {p['bound']} tokens ({p['rule']})",
        "zh-CN": "{count} 行的 {field} 长于 {bound} 个 token（{rule}）",
    },
    "audit.limit_given": {"en": "limit given", "zh-CN": "给定的界限"},
    "audit.fence_low": {
        "en": "Tukey fence on log length, Q1 − {k}·IQR",
        "zh-CN": "对数长度的 Tukey 围栏，Q1 − {k}·IQR",
    },
    "audit.fence_high": {
        "en": "Tukey fence on log length, Q3 + {k}·IQR",
        "zh-CN": "对数长度的 Tukey 围栏，Q3 + {k}·IQR",
    },
}

# ---- forms: what a request's fields must be, said in words (api/errors.py, jobs/service.py, engines) ---------------
FORMS: dict[str, dict[str, Template]] = {
    "form.name_pattern": {
        "en": "use letters, digits, '.', '_' and '-' only, starting with a letter or digit",
        "zh-CN": "只能使用字母、数字、“.”、“_”和“-”，并以字母或数字开头",
    },
    "job.unknown_dataset": {
        "en": "no registered dataset is named '{dataset}' (the Datasets page lists them)",
        "zh-CN": "没有名为“{dataset}”的已登记数据集（数据集页面列出了全部）",
    },
    "engine.not_installed": {
        "en": "verl is not installed here: install the platform with its `verl` extra",
        "zh-CN": "本机未安装 verl：请安装平台的 `verl` 附加组件",
    },
    "engine.not_installed_in": {
        "en": "verl is not installed in {python} (settings.verl_python)",
        "zh-CN": "{python} 中未安装 verl（settings.verl_python）",
    },
    "engine.environment_unusable": {
        "en": "the verl environment {python} cannot be used: {error}",
        "zh-CN": "无法使用 verl 环境 {python}：{error}",
    },
    "engine.no_rollout": {
        "en": "verl's {algorithm} generates with a rollout engine (vLLM, SGLang or TRT-LLM) and none is installed in "
        "{python}; install vllm on a GPU machine, or the CPU profile (`make rl-env`, then "
        "PLATFORM_VERL_PYTHON=.venv-rl/bin/python), or use engine 'trl' (or 'auto'), which trains GRPO/GSPO "
        "without one",
        "zh-CN": "verl 的 {algorithm} 需要推理引擎（vLLM、SGLang 或 TRT-LLM）生成回答，而 {python} 中一个也没有安装；"
        "请在 GPU 机器上安装 vllm，或安装 CPU 配置（`make rl-env`，再设 PLATFORM_VERL_PYTHON=.venv-rl/bin/python），"
        "或改用引擎 'trl'（或 'auto'），它无需推理引擎即可训练 GRPO/GSPO",
    },
}


# ---- rewards: what a job's rule rewards give right answers, before launch (rewards/preview.py) --------------------
REWARDS: dict[str, dict[str, Template]] = {
    "rewards.all_zero": {
        "en": "No row scores above 0, not even with its reference answer as the completion: the model would train "
        "without any reward to learn from",
        "zh-CN": "即使把参考答案当作回答，也没有任何一行得分高于 0：模型将在没有任何奖励信号的情况下训练",
    },
    "rewards.boxed_hint": {
        "en": "the references are not written in \\boxed{{…}}, the only form the extraction 'boxed' reads: for plain "
        "answers choose the extraction 'last_number'",
        "zh-CN": "参考答案没有写成 \\boxed{{…}}，而提取方式“boxed”只读取这种形式："
        "纯文本答案请选择提取方式“last_number”",
    },
    "rewards.always_zero": {
        "en": "reward {number} ({name}) gives 0 to the right answers of every row",
        "zh-CN": "奖励 {number}（{name}）对每一行的正确答案都给 0 分",
    },
}

# ---- what a training engine chose for a run, or could not apply (the status file's notes; the job's events) ----
ENGINE_NOTES: dict[str, dict[str, Template]] = {
    "trl.packed": {
        "en": "packed {samples} samples into {packs} sequences of up to {tokens} tokens (mean sample {mean} tokens), "
        "each sample attending only to itself",
        "zh-CN": "已将 {samples} 个样本打包为 {packs} 个序列，每个最多 {tokens} 个 token（样本平均 {mean} 个 token），"
        "每个样本只关注自身",
    },
    "trl.packing_fallback": {
        "en": "samples padded, not packed: {reason}",
        "zh-CN": "样本改为填充而非打包：{reason}",
    },
    # engines/trl/acceleration.py: what the TRL engine adds on CUDA, or why not
    "trl.liger": {
        "en": "Liger kernels on the {family} model's RMSNorm, RoPE and SwiGLU layers (the loss stays on TRL's fused "
        "LM head)",
        "zh-CN": "{family} 模型的 RMSNorm、RoPE 和 SwiGLU 层使用 Liger 内核（损失仍由 TRL 的融合 LM head 计算）",
    },
    "trl.liger_absent": {"en": "no Liger kernels: {reason}", "zh-CN": "未使用 Liger 内核：{reason}"},
    "trl.flash_attention": {
        "en": "the {family} model's attention computed by FlashAttention-2, each packed sample within its own bounds",
        "zh-CN": "{family} 模型的注意力由 FlashAttention-2 计算，每个打包样本只在自身范围内计算",
    },
    "trl.flash_attention_absent": {
        "en": "attention computed by PyTorch's SDPA, not FlashAttention-2: {reason}",
        "zh-CN": "注意力由 PyTorch 的 SDPA 计算，未使用 FlashAttention-2：{reason}",
    },
    "trl.vllm": {
        "en": "rollouts generated by vLLM colocated in the training process: one engine per GPU with {share} of its "
        "memory ({memory}), for sequences of up to {length}",
        "zh-CN": "rollout 由与训练进程同置的 vLLM 生成：每块 GPU 一个引擎，占其显存的 {share}（{memory}），"
        "序列最长 {length}",
    },
    "trl.vllm_memory_released": {"en": "released while the model trains", "zh-CN": "模型训练期间释放"},
    "trl.vllm_memory_held": {"en": "held while the model trains", "zh-CN": "模型训练期间仍占用"},
    "trl.vllm_tokens": {"en": "{tokens} tokens", "zh-CN": "{tokens} 个 token"},
    "trl.vllm_model_length": {"en": "the model's context length", "zh-CN": "模型的上下文长度"},
    "trl.vllm_absent": {
        "en": "rollouts generated with model.generate, not vLLM: {reason}",
        "zh-CN": "rollout 由 model.generate 生成，未使用 vLLM：{reason}",
    },
    "trl.settings_kept": {
        "en": "kept as the job's engine settings set: {settings}",
        "zh-CN": "保留任务的引擎设置：{settings}",
    },
    "trl.setting_against": {
        "en": "{setting} as the job's engine settings ask, though {reason}",
        "zh-CN": "按任务的引擎设置使用 {setting}，尽管{reason}",
    },
    "trl.reason.no_cuda": {"en": "no CUDA on this device ({device})", "zh-CN": "此设备没有 CUDA（{device}）"},
    "trl.reason.not_installed": {
        "en": "{package} is not installed in the training environment",
        "zh-CN": "训练环境中未安装 {package}",
    },
    "trl.reason.liger_family": {
        "en": "Liger kernels are chosen for Llama, Mistral, Qwen2 and Qwen3 models, and this model's type is "
        "{model_type}",
        "zh-CN": "Liger 内核只用于 Llama、Mistral、Qwen2 和 Qwen3 模型，而此模型的类型为 {model_type}",
    },
    "trl.reason.flash_family": {
        "en": "FlashAttention-2 is chosen for Llama, Mistral, Qwen2 and Qwen3 models, and this model's type is "
        "{model_type}",
        "zh-CN": "FlashAttention-2 只用于 Llama、Mistral、Qwen2 和 Qwen3 模型，而此模型的类型为 {model_type}",
    },
    "trl.reason.float32_weights": {
        "en": "the weights are float32 (precision fp16 or fp32, or a GPU without bfloat16), and FlashAttention-2 "
        "takes bfloat16 or float16 tensors",
        "zh-CN": "权重为 float32（精度为 fp16 或 fp32，或 GPU 不支持 bfloat16），"
        "而 FlashAttention-2 只接受 bfloat16 或 float16 张量",
    },
    "trl.reason.sharded": {
        "en": "the model is sharded over {gpus} GPUs (zero_stage {stage}), and a colocated vLLM would hold a whole "
        "copy on each",
        "zh-CN": "模型以 zero_stage {stage} 分片到 {gpus} 块 GPU 上，而同置的 vLLM 会在每块 GPU 上保存一份完整副本",
    },
    "trl.reason.setting": {
        "en": "the job's engine settings set {setting}",
        "zh-CN": "任务的引擎设置指定了 {setting}",
    },
}


CATALOGUE: dict[str, dict[str, Template]] = {
    **ENGINE_NOTES,
    **{PYDANTIC_PREFIX + kind: texts for kind, texts in VALIDATION.items()},
    **PATHS,
    **REWARDS,
    **JOBS,
    **PROCESSES,
    **JOB_FAILURES,
    **COMPUTE,
    **DATASETS,
    **FORMS,
}
