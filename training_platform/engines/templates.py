"""What a model's chat template leaves out of a row: tools and tool calls the data carries but the template does
not render. Such a template trains a tool-call turn as an empty reply, and the model never sees the tools.

One row is rendered as the engines render it (engines/trl/data.py: the messages with the row's `tools`), then
again without its tools and without its tool calls: a rendering that does not change is a template that drops
them. Where the tool calls do change it, each call's name and argument values must still appear in the text (a
template may render a call's name but not its arguments). The loss preview and job creation warn with the result.
"""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from training_platform.contract.data import DataFormat
from training_platform.datafiles.errors import DatasetFileError, RowProblem
from training_platform.datafiles.limits import ReadLimits
from training_platform.datafiles.presets import RowFormatError, normalise_row
from training_platform.datafiles.readers import iter_rows

_MAX_LEAVES = 50  # argument values looked for per tool call
ROWS_LOOKED_AT = 100  # a file's first rows, for one that carries tools or tool calls


def row_messages(row: dict[str, Any]) -> list[dict[str, Any]]:
    """The conversation a row in the platform's shape holds: its `messages`, or its prompt and answer turns."""
    if isinstance(row.get("messages"), list):
        return row["messages"]
    parts = [row.get(name) for name in ("prompt", "response", "chosen")]
    return [message for part in parts if isinstance(part, list) for message in part]


def carries_tools(row: dict[str, Any]) -> bool:
    return bool(row.get("tools")) or any(_calls(message) for message in row_messages(row))


def first_row_with_tools(
    path: Path, data_format: DataFormat, kind: str, limits: ReadLimits
) -> tuple[int, dict[str, Any]] | None:
    """The number and the platform's shape of the first of a file's first `ROWS_LOOKED_AT` rows that carries tools
    or tool calls; None when none does (or the file cannot be read: its validation says why)."""
    try:
        for number, row in iter_rows(path, limits=limits):
            if number > ROWS_LOOKED_AT:
                break
            if isinstance(row, RowProblem):
                continue
            try:
                normalised = normalise_row(row, data_format, kind)
            except RowFormatError:
                continue
            if carries_tools(normalised):
                return number, normalised
    except DatasetFileError:
        return None
    return None


def template_drops(tokenizer, row: dict[str, Any]) -> list[str]:
    """What of the row's tools and tool calls the tokenizer's chat template does not render, each said in a few
    words; empty when it renders them all (or the row carries none)."""
    tools = row.get("tools") or None
    messages = [message for message in row_messages(row) if isinstance(message, dict)]
    calls = [call for message in messages for call in _calls(message)]
    if not tools and not calls:
        return []
    if tokenizer.chat_template is None:
        return ["the tokenizer has no chat template: the row's tools and tool calls are not rendered"]
    try:
        text = _render(tokenizer, messages, tools)
    except Exception as error:  # noqa: BLE001 - a template raises what its author wrote (jinja2, raise_exception)
        return [f"the chat template cannot render the row's tools or tool calls ({type(error).__name__}: {error})"]
    dropped = []
    if tools and _renders_as(tokenizer, messages, None, text):
        dropped.append(f"the tools list ({', '.join(_tool_name(tool) for tool in tools)}) is not rendered")
    without_calls = [{k: v for k, v in m.items() if k != "tool_calls"} if _calls(m) else m for m in messages]
    if calls and _renders_as(tokenizer, without_calls, tools, text):
        dropped.append(f"the tool calls ({', '.join(_call_name(call) for call in calls)}) are not rendered")
    elif calls:
        dropped += [f"tool call '{_call_name(call)}': {missing}" for call in calls if (missing := _missing(call, text))]
    return dropped


def load_tokenizer_of(model_path: str | Path):
    """The tokenizer of a local model directory (never a hub), or None when there is none to load."""
    from transformers import AutoTokenizer

    try:
        return AutoTokenizer.from_pretrained(str(model_path), local_files_only=True)
    except (OSError, ValueError):
        return None


def _render(tokenizer, messages: list[dict[str, Any]], tools: Any) -> str:
    return tokenizer.apply_chat_template(messages, tools=tools, tokenize=False)


def _renders_as(tokenizer, messages: list[dict[str, Any]], tools: Any, text: str) -> bool:
    """Whether the row, less what was taken out of it, renders to the same text (a template that cannot render
    it without what was taken out does render that)."""
    try:
        return _render(tokenizer, messages, tools) == text
    except Exception:  # noqa: BLE001 - as in template_drops
        return False


def _calls(message: Any) -> list[dict[str, Any]]:
    calls = message.get("tool_calls") if isinstance(message, dict) else None
    return [call for call in calls if isinstance(call, dict)] if isinstance(calls, list) else []


def _function(call: dict[str, Any]) -> dict[str, Any]:
    function = call.get("function")
    return function if isinstance(function, dict) else call


def _call_name(call: dict[str, Any]) -> str:
    return str(_function(call).get("name"))


def _tool_name(tool: Any) -> str:
    schema = tool.get("function", tool) if isinstance(tool, dict) else {}
    return str(schema.get("name") if isinstance(schema, dict) else None)


def _missing(call: dict[str, Any], text: str) -> str:
    """Which of a rendered call's name and argument values are not in the text."""
    absent = [] if _shown(_call_name(call), text) else ["its name"]
    values = [value for _, value in zip(range(_MAX_LEAVES), _leaves(_function(call).get("arguments")), strict=False)]
    if any(not _shown(value, text) for value in values):
        absent.append("its arguments")
    return " and ".join(absent) + " not rendered" if absent else ""


def _leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    elif value is not None and value != "":
        yield value


def _shown(value: Any, text: str) -> bool:
    """The value as a template may write it: as it is, or as JSON (escaped or not)."""
    forms = {str(value), json.dumps(value, ensure_ascii=False), json.dumps(value)}
    if isinstance(value, str):
        forms |= {json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}
    return any(form in text for form in forms)


def template_drops_in_rows(model_path: str, rows: list[tuple[str, int, dict[str, Any]]]) -> list[tuple[str, int, str]]:
    """For each (file, row number, row) that carries tools or tool calls: the file, the row and what of it the
    model's chat template does not render. Run in the decoding worker (common/worker.py): the tokenizer is a
    user's to plant."""
    tokenizer = load_tokenizer_of(model_path)
    if tokenizer is None:
        return []  # no tokenizer in the model directory: the engine refuses the job for that
    drops = [(path, number, template_drops(tokenizer, row)) for path, number, row in rows]
    return [(path, number, "; ".join(dropped)) for path, number, dropped in drops if dropped]
