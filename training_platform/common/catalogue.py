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

CATALOGUE: dict[str, dict[str, Template]] = {
    **{PYDANTIC_PREFIX + kind: texts for kind, texts in VALIDATION.items()},
    **PATHS,
    **JOBS,
    **PROCESSES,
}
