"""Format presets on rows shaped as their ecosystems publish them: each becomes the platform's row and passes its
checks; detection, field mapping by dotted paths, error messages and unused columns."""

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from training_platform.contract.data import PRESET_NAMES, DataFormat, ShareGptTags
from training_platform.datafiles.formats import row_problem, schema_for, validate_file
from training_platform.datafiles.presets import (
    PRESETS,
    Detection,
    RowFormatError,
    consumed_columns,
    detect_presets,
    get_path,
    normalise_row,
    preset_problem,
    unused_columns,
)
from training_platform.datasets.texts import no_preset_text


def fmt(preset=None, **kwargs) -> DataFormat:
    return DataFormat(preset=preset, **kwargs)


def user(text):
    return {"role": "user", "content": text}


def assistant(text):
    return {"role": "assistant", "content": text}


def system(text):
    return {"role": "system", "content": text}


WEATHER_TOOL = {
    "name": "get_weather",
    "description": "Current weather of a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


def weather_call(city, **extra):
    return {**extra, "type": "function", "function": {"name": "get_weather", "arguments": {"city": city}}}


# ---- one real-shaped row per preset -----------------------------------------------------------------------

# LLaMA-Factory's data/glaive_toolcall_en_demo.json shape: a system column, tools as JSON text, a function call
# and its observation, then a second exchange.
SHAREGPT_ROW = {
    "conversations": [
        {"from": "human", "value": "What's the weather in Paris?"},
        {"from": "function_call", "value": '{"name": "get_weather", "arguments": {"city": "Paris"}}'},
        {"from": "observation", "value": '{"temperature": 18}'},
        {"from": "gpt", "value": "It is 18 °C in Paris."},
        {"from": "human", "value": "And in Rome?"},
        {"from": "gpt", "value": "I would have to look that up too."},
    ],
    "system": "You are a weather assistant.",
    "tools": json.dumps([WEATHER_TOOL]),
}
SHAREGPT_EXPECTED = {
    "messages": [
        system("You are a weather assistant."),
        user("What's the weather in Paris?"),
        {"role": "assistant", "content": "", "tool_calls": [weather_call("Paris")]},
        {"role": "tool", "content": '{"temperature": 18}'},
        assistant("It is 18 °C in Paris."),
        user("And in Rome?"),
        assistant("I would have to look that up too."),
    ],
    "tools": [{"type": "function", "function": WEATHER_TOOL}],
}

# LLaMA-Factory's README alpaca example, every column filled.
ALPACA_ROW = {
    "instruction": "Translate into French",
    "input": "Good morning",
    "output": "Bonjour",
    "system": "You are a translator.",
    "history": [["Translate into German: thank you", "Danke"], ["And into Italian?", "Grazie"]],
}
ALPACA_EXPECTED = {
    "messages": [
        system("You are a translator."),
        user("Translate into German: thank you"),
        assistant("Danke"),
        user("And into Italian?"),
        assistant("Grazie"),
        user("Translate into French\nGood morning"),
        assistant("Bonjour"),
    ]
}

# OpenAI's fine-tuning format for function calling: arguments as JSON text, content null beside the call.
OPENAI_ROW = {
    "messages": [
        system("You are a weather assistant."),
        user("Weather in Oslo?"),
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "name": "get_weather", "content": '{"temperature": -3}'},
        assistant("It is -3 °C in Oslo."),
    ],
    "tools": [{"type": "function", "function": WEATHER_TOOL}],
}
OPENAI_EXPECTED = {
    "messages": [
        system("You are a weather assistant."),
        user("Weather in Oslo?"),
        {"role": "assistant", "content": "", "tool_calls": [weather_call("Oslo", id="call_1")]},
        {"role": "tool", "tool_call_id": "call_1", "name": "get_weather", "content": '{"temperature": -3}'},
        assistant("It is -3 °C in Oslo."),
    ],
    "tools": [{"type": "function", "function": WEATHER_TOOL}],
}

# TRL's docs, conversational prompt-completion.
TRL_PROMPT_COMPLETION_ROW = {
    "prompt": [user("What color is the sky?")],
    "completion": [assistant("It is blue.")],
}
TRL_PROMPT_COMPLETION_EXPECTED = {"prompt": [user("What color is the sky?")], "response": [assistant("It is blue.")]}

# TRL's docs, preference with an implicit prompt, over two turns.
IMPLICIT_PREFERENCE_ROW = {
    "chosen": [user("Hi"), assistant("Hello!"), user("What color is the sky?"), assistant("It is blue.")],
    "rejected": [user("Hi"), assistant("Hello!"), user("What color is the sky?"), assistant("It is green.")],
}
IMPLICIT_PREFERENCE_EXPECTED = {
    "prompt": [user("Hi"), assistant("Hello!"), user("What color is the sky?")],
    "chosen": [assistant("It is blue.")],
    "rejected": [assistant("It is green.")],
}

# LLaMA-Factory's data/dpo_en_demo.json shape.
SHAREGPT_PREFERENCE_ROW = {
    "conversations": [{"from": "human", "value": "Name a prime number."}],
    "chosen": {"from": "gpt", "value": "7"},
    "rejected": {"from": "gpt", "value": "8"},
}
SHAREGPT_PREFERENCE_EXPECTED = {
    "prompt": [user("Name a prime number.")],
    "chosen": [assistant("7")],
    "rejected": [assistant("8")],
}

# The layout of verl's example preprocessing, data_preprocess/gsm8k.py.
VERL_ROW = {
    "data_source": "openai/gsm8k",
    "prompt": [
        user("Natalia sold 48 clips in April and half as many in May. How many in all? Let's think step by step")
    ],
    "ability": "math",
    "reward_model": {"style": "rule", "ground_truth": "72"},
    "extra_info": {"split": "train", "index": 0, "answer": "48 + 24 = 72", "question": "Natalia sold 48 clips"},
}
VERL_EXPECTED = {**VERL_ROW, "solution": "72"}

ALPACA_DPO_ROW = {"instruction": "Name a prime number", "input": "", "chosen": "7", "rejected": "8"}
ALPACA_DPO_EXPECTED = {"prompt": [user("Name a prime number")], "chosen": "7", "rejected": "8"}

CASES = [
    ("sharegpt", "sft", SHAREGPT_ROW, SHAREGPT_EXPECTED),
    ("alpaca", "sft", ALPACA_ROW, ALPACA_EXPECTED),
    ("openai", "sft", OPENAI_ROW, OPENAI_EXPECTED),
    ("trl-prompt-completion", "sft", TRL_PROMPT_COMPLETION_ROW, TRL_PROMPT_COMPLETION_EXPECTED),
    ("trl-preference", "dpo", IMPLICIT_PREFERENCE_ROW, IMPLICIT_PREFERENCE_EXPECTED),
    ("sharegpt-preference", "dpo", SHAREGPT_PREFERENCE_ROW, SHAREGPT_PREFERENCE_EXPECTED),
    ("verl-rl", "grpo", VERL_ROW, VERL_EXPECTED),
    ("alpaca", "dpo", ALPACA_DPO_ROW, ALPACA_DPO_EXPECTED),
]


@pytest.mark.parametrize(("preset", "kind", "row", "expected"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_each_preset_gives_the_platform_row(preset, kind, row, expected):
    normalised = normalise_row(row, fmt(preset), kind)
    assert normalised == expected
    assert row_problem(normalised, schema_for(kind, ["solution"] if kind == "grpo" else [])) is None


@pytest.mark.parametrize(("preset", "kind", "row", "expected"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_detection_proposes_the_preset_the_rows_are_in(preset, kind, row, expected):
    detection = detect_presets([row, row], kind)
    assert detection.detected == preset
    assert dict(detection.tried)[preset] is None


def test_more_shapes_each_preset_reads():
    # Alpaca: the input alone when the instruction is blank (LLaMA-Factory joins only what is there).
    assert normalise_row({"instruction": "", "input": "2+2?", "output": "4"}, fmt("alpaca"), "sft") == {
        "messages": [user("2+2?"), assistant("4")]
    }
    # ShareGPT: a system turn wins over the system column; several calls in one function turn; custom tags.
    tags = ShareGptTags(role_tag="role", content_tag="text", user_tag="u", assistant_tag="a", function_tag="f")
    calls = json.dumps([{"name": "get_weather", "arguments": {"city": c}} for c in ("Oslo", "Rome")])
    row = {
        "conversations": [
            {"role": "system", "text": "turn system"},
            {"role": "u", "text": "Both?"},
            {"role": "f", "text": calls},
        ],
        "system": "column system",
    }
    assert normalise_row(row, fmt("sharegpt", tags=tags), "sft")["messages"] == [
        system("turn system"),
        user("Both?"),
        {"role": "assistant", "content": "", "tool_calls": [weather_call("Oslo"), weather_call("Rome")]},
    ]
    # TRL: standard prompt-completion and explicit conversational preference.
    assert normalise_row({"prompt": "The sky is", "completion": " blue."}, fmt("trl-prompt-completion"), "sft") == {
        "prompt": "The sky is",
        "response": " blue.",
    }
    explicit = {"prompt": [user("Sky?")], "chosen": [assistant("Blue.")], "rejected": [assistant("Green.")]}
    assert normalise_row(explicit, fmt("trl-preference"), "dpo") == explicit
    assert row_problem(explicit, schema_for("dpo")) is None


def test_columns_a_preset_does_not_read_stay_and_stale_platform_fields_go():
    row = {**ALPACA_ROW, "id": 7, "response": "stale", "prompt": "stale"}
    assert normalise_row(row, fmt("alpaca"), "sft") == {**ALPACA_EXPECTED, "id": 7}


def test_the_platform_format_is_unchanged_but_null_content_beside_tool_calls():
    rows = [
        {"prompt": "p", "response": "r", "extra": 1},
        {"messages": [user("q"), assistant("a")]},
        {"prompt": "p", "chosen": "c", "rejected": "r"},
    ]
    for row in rows:
        assert normalise_row(row, fmt(), "sft") == row
    call = {"role": "assistant", "content": None, "tool_calls": [weather_call("Oslo")]}
    normalised = normalise_row({"messages": [user("q"), call, assistant("a")]}, fmt(), "sft")
    assert normalised["messages"][1] == {**call, "content": ""}
    # A null content without tool calls stays, for the check to report.
    assert normalise_row({"messages": [user(None)]}, fmt(), "sft") == {"messages": [user(None)]}


# ---- errors -----------------------------------------------------------------------------------------------


def error_of(row, data_format, kind="sft") -> str:
    with pytest.raises(RowFormatError) as caught:
        normalise_row(row, data_format, kind)
    return str(caught.value)


def test_an_unknown_role_tag_names_the_turn_and_the_tags():
    row = {"conversations": [{"from": "human", "value": "hi"}, {"from": "gpt", "value": "yo"}, {"from": "bot"}]}
    assert error_of(row, fmt("sharegpt")) == (
        "field 'conversations[2].from' has unknown role tag 'bot'; "
        "expected one of human, gpt, system, observation, function_call"
    )


@pytest.mark.parametrize(
    ("preset", "kind", "row", "message"),
    [
        ("alpaca", "sft", {"instruction": "i"}, "missing required field 'output'"),
        ("alpaca", "sft", {"instruction": " ", "output": "o"}, "field 'instruction' is empty"),
        ("alpaca", "sft", {"instruction": "i", "output": "o", "history": [["q"]]}, "field 'history[0]' must be a"),
        ("alpaca", "sft", {"instruction": "i", "output": ["o"]}, "field 'output' must be text, got list"),
        (
            "sharegpt",
            "sft",
            {"conversations": [{"from": "human", "value": "q"}, {"from": "function_call", "value": "get_weather()"}]},
            "field 'conversations[1].value' is not a function call",
        ),
        ("sharegpt", "sft", {"conversations": [{"from": "human", "value": {"text": "q"}}]}, "'conversations[0].value'"),
        ("sharegpt", "sft", {"conversations": [{"value": "q"}]}, "missing required field 'conversations[0].from'"),
        ("sharegpt", "sft", {"conversations": []}, "field 'conversations' is empty"),
        ("sharegpt", "sft", {"conversations": [{"from": "gpt", "value": "a"}], "tools": "[{"}, "'tools' is not valid"),
        ("openai", "sft", {"messages": [user("q"), {"role": "bot", "content": "a"}]}, "field 'messages[1].role' is"),
        ("openai", "sft", {"messages": [user(None)]}, "field 'messages[0].content' is missing"),
        (
            "openai",
            "sft",
            {"messages": [user("q"), {"role": "assistant", "content": None, "tool_calls": [{"type": "function"}]}]},
            "field 'messages[1].tool_calls[0].function' must be an object",
        ),
        ("openai", "sft", {"messages": [user("q")], "tools": ["get_weather"]}, "field 'tools[0]' must be a tool"),
        (
            "trl-prompt-completion",
            "sft",
            {"prompt": [user("q")], "completion": [user("a")]},
            "field 'completion[0].role' is 'user'; a completion holds assistant messages only",
        ),
        ("trl-preference", "dpo", {"chosen": "The sky is blue.", "rejected": "The sky is green."}, "field 'prompt'"),
        (
            "trl-preference",
            "dpo",
            {"chosen": [user("a"), assistant("b")], "rejected": [user("c"), assistant("b")]},
            "field 'chosen' shares no opening message with 'rejected'",
        ),
        (
            "trl-preference",
            "dpo",
            {"chosen": [user("a"), assistant("b")], "rejected": [user("a"), assistant("b")]},
            "field 'chosen' has no message after",
        ),
        (
            "trl-preference",
            "dpo",
            {"chosen": [user("a"), assistant("b")], "rejected": [user("a"), user("c")]},
            "field 'rejected[1].role' is 'user'",
        ),
        (
            "sharegpt-preference",
            "dpo",
            {**SHAREGPT_PREFERENCE_ROW, "rejected": {"from": "human", "value": "8"}},
            "field 'rejected.from' has role tag 'human'; expected one of gpt, function_call",
        ),
        ("sharegpt-preference", "dpo", {**SHAREGPT_PREFERENCE_ROW, "chosen": "7"}, "field 'chosen' must be a turn"),
        ("verl-rl", "grpo", {"prompt": [user("q")]}, "missing required field 'reward_model'"),
        ("verl-rl", "ppo", {"prompt": [user("q")], "reward_model": "72"}, "field 'reward_model' must be an object"),
    ],
)
def test_errors_name_the_field_of_the_row(preset, kind, row, message):
    assert message in error_of(row, fmt(preset), kind)


def test_errors_name_the_field_as_the_file_has_it_through_the_mapping():
    row = {"data": {"dialog": [{"from": "human", "value": "hi"}, {"from": "bot", "value": "yo"}]}}
    message = error_of(row, fmt("sharegpt", field_mapping={"conversations": "data.dialog"}))
    assert message.startswith("field 'data.dialog[1].from' has unknown role tag 'bot'")
    message = error_of({"question": "q"}, fmt("alpaca", field_mapping={"instruction": "question", "output": "answer"}))
    assert message == "missing required field 'answer'"


def test_a_preset_made_for_other_kinds_is_refused_up_front():
    assert preset_problem(fmt("sharegpt"), "dpo") == "the sharegpt preset reads sft datasets, not dpo"
    assert preset_problem(fmt("verl-rl"), "gspo") is None and preset_problem(fmt(), "eval") is None
    with pytest.raises(ValueError, match="the verl-rl preset reads grpo, gspo, ppo datasets, not sft"):
        normalise_row(VERL_ROW, fmt("verl-rl"), "sft")


# ---- detection --------------------------------------------------------------------------------------------


def test_detection_refuses_rows_that_fit_several_presets():
    row = {**OPENAI_ROW, "conversations": SHAREGPT_ROW["conversations"]}
    detection = detect_presets([row], "sft")
    assert detection.detected is None
    assert [name for name, reason in detection.tried if reason is None] == ["sharegpt", "openai"]
    assert no_preset_text(detection).render() == (
        "the rows fit several format presets (sharegpt, openai); name the one they are in"
    )
    assert (
        no_preset_text(detection).render("zh-CN")
        == "这些行符合多个格式预设（sharegpt, openai）；请指定它们所用的那一个"
    )


def test_detection_needs_every_sampled_row_and_says_why_each_preset_failed():
    detection = detect_presets([ALPACA_ROW, SHAREGPT_ROW, {"text": "raw"}], "sft")
    assert detection.detected is None
    reasons = dict(detection.tried)
    assert reasons["alpaca"] == "missing required field 'instruction' (2 of 3 sampled rows)"
    assert reasons["sharegpt"] == "missing required field 'conversations' (2 of 3 sampled rows)"
    message = no_preset_text(detection).render()
    assert message.startswith("no format preset fits these sft rows (alpaca: missing required field 'instruction'")
    for name in ("sharegpt", "openai", "trl-prompt-completion"):
        assert f"{name}: missing required field" in message


def test_detection_only_tries_presets_made_for_the_kind():
    assert [name for name, _ in detect_presets([VERL_ROW], "ppo").tried] == ["verl-rl"]
    assert [name for name, _ in detect_presets([ALPACA_DPO_ROW], "dpo").tried] == [
        "alpaca",
        "trl-preference",
        "sharegpt-preference",
    ]
    assert [name for name, _ in detect_presets([{"prompt": "p", "reference": "r"}], "eval").tried] == [
        "mmlu",
        "humaneval",
    ]
    assert no_preset_text(Detection("eval", None, [])).render() == "no format preset reads eval datasets"


def test_a_blank_value_does_not_hide_the_format():
    detection = detect_presets([ALPACA_ROW, {**ALPACA_ROW, "output": "  "}], "sft")
    assert detection.detected == "alpaca"


def test_detection_goes_through_the_field_mapping_and_tags():
    row = {"dialog": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]}
    tags = ShareGptTags(role_tag="role", content_tag="content", user_tag="user", assistant_tag="assistant")
    detection = detect_presets([row], "sft", fmt(field_mapping={"conversations": "dialog"}, tags=tags))
    assert detection.detected == "sharegpt"


# ---- field mapping ----------------------------------------------------------------------------------------


def test_dotted_paths_reach_nested_values():
    row = {"reward_model": {"ground_truth": "72"}, "turns": [{"q": "first"}, {"q": "second"}], "a.b": "literal"}
    assert get_path(row, "reward_model.ground_truth") == "72"
    assert get_path(row, "turns.1.q") == "second"
    assert get_path(row, "a.b") == "literal"  # a column named with the dots wins
    for missing in ("reward_model.style", "turns.2.q", "turns.x", "reward_model.ground_truth.0"):
        with pytest.raises(KeyError):
            get_path(row, missing)


def test_the_mapping_applies_before_the_preset_and_without_one():
    row = {"question": "2+2?", "meta": {"answer": "4"}, "reward_model": {"ground_truth": "5"}}
    # Without a preset: the platform's names, the source columns kept (as the whole-column mapping always did).
    mapped = normalise_row(row, fmt(field_mapping={"prompt": "question", "solution": "meta.answer"}), "grpo")
    assert mapped == {**row, "prompt": "2+2?", "solution": "4"}
    assert row_problem(mapped, schema_for("grpo", ["solution"])) is None
    # verl-rl: the ground truth fills `solution` unless the mapping (or the file) gives it.
    verl = {**VERL_ROW, "extra_info": {"answer": "seventy-two"}}
    assert normalise_row(verl, fmt("verl-rl"), "grpo")["solution"] == "72"
    mapping = {"solution": "extra_info.answer"}
    assert normalise_row(verl, fmt("verl-rl", field_mapping=mapping), "grpo")["solution"] == "seventy-two"
    # A path that does not resolve leaves the name as the row has it.
    assert normalise_row({"prompt": "p"}, fmt(field_mapping={"prompt": "absent.path"}), "grpo") == {"prompt": "p"}


# ---- columns ----------------------------------------------------------------------------------------------


def test_unused_columns_are_what_nothing_reads():
    columns = ["instruction", "input", "output", "system", "id", "source"]
    assert unused_columns(columns, fmt("alpaca"), "sft") == ["id", "source"]
    mapped = fmt("alpaca", field_mapping={"instruction": "question", "output": "meta.answer"})
    assert consumed_columns(mapped, "sft") == {"question", "meta", "input", "system", "history", "tools"}
    assert unused_columns(["question", "meta", "instruction", "id"], mapped, "sft") == ["instruction", "id"]
    assert unused_columns(["prompt", "response", "tools", "system"], fmt(), "sft") == ["system"]
    assert unused_columns(["prompt", "chosen", "rejected", "tools"], fmt(), "dpo") == ["tools"]
    assert unused_columns(["prompt", "reference", "category", "notes"], fmt(), "eval") == ["notes"]
    # RL: every column reaches the reward functions.
    assert unused_columns(["prompt", "anything", "else"], fmt(), "grpo") == []
    assert unused_columns(list(VERL_ROW), fmt("verl-rl"), "ppo") == []


def test_every_preset_is_registered_with_its_kinds_and_columns():
    assert tuple(PRESETS) == PRESET_NAMES
    for preset in PRESETS.values():
        assert preset.description and preset.kinds and all(preset.columns[kind] for kind in preset.kinds)


# ---- the platform's checks of the extended rows -----------------------------------------------------------


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


@pytest.mark.parametrize(
    ("kind", "row", "problem"),
    [
        ("sft", OPENAI_ROW, None),
        ("sft", {"prompt": [user("q")], "response": [assistant("a"), assistant("b")]}, None),
        ("dpo", {"prompt": "p", "chosen": [assistant("c")], "rejected": "r"}, None),
        ("sft", {"prompt": "p", "response": [user("a")]}, "field 'response' must be text or a list of assistant"),
        ("sft", {"prompt": "p", "response": []}, "field 'response' is empty"),
        ("sft", {"messages": [user("q"), assistant(None)]}, "messages[1].content is missing"),
        ("sft", {"messages": [user("q"), {**user("r"), "tool_calls": [weather_call("x")]}]}, "may only be on an"),
        ("sft", {"messages": [user("q"), assistant("a")], "tools": "[]"}, "field 'tools' must be a list of tool"),
        (
            "sft",
            {"prompt": "p", "response": "r", "tools": [1]},
            "field 'tools' must be a list of tool schemas: tools[0]",
        ),
    ],
)
def test_the_platform_checks_tool_calls_assistant_lists_and_tools(tmp_path, kind, row, problem):
    messages = [p.message for p in validate_file(write_jsonl(tmp_path / "d.jsonl", [row]), kind).problems]
    if problem is None:
        assert messages == []
    else:
        assert len(messages) == 1 and problem in messages[0], messages


def test_a_tools_column_is_checked_in_every_row_of_a_table(tmp_path):
    # Rows whose prompt and response are fine are otherwise never looked at one by one (the fast path).
    rows = [{"prompt": "p", "response": "r", "tools": [WEATHER_TOOL]} for _ in range(3)]
    rows[1]["tools"] = None
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "ok.parquet")
    assert validate_file(tmp_path / "ok.parquet", "sft").problems == []
    rows[2]["tools"] = "get_weather"
    report = validate_file(write_jsonl(tmp_path / "bad.jsonl", rows), "sft")
    assert [(p.row, p.message) for p in report.problems] == [
        (3, "field 'tools' must be a list of tool schema objects, got str")
    ]


def test_llama_factorys_column_keys_name_the_presets_columns_and_errors_name_the_files_own():
    """An entry of LLaMA-Factory's dataset_info.json as the mapping: alpaca's `prompt`/`query`/`response` are its
    instruction/input/output, sharegpt's `messages` its conversations; a row's problem names the file's column."""
    alpaca = fmt("alpaca", field_mapping={"prompt": "question", "query": "context", "response": "answer"})
    row = {"question": "Translate.", "context": "Good morning", "answer": "Bonjour", "id": 7}
    normalised = normalise_row(row, alpaca, "sft")
    assert normalised["messages"] == [user("Translate.\nGood morning"), assistant("Bonjour")]
    assert normalised["id"] == 7
    assert unused_columns(list(row), alpaca, "sft") == ["id"]
    assert error_of({"question": "Translate."}, alpaca) == "missing required field 'answer'"
    assert error_of({"question": "Translate.", "answer": 7}, alpaca) == "field 'answer' must be text, got int"
    sharegpt = fmt("sharegpt", field_mapping={"messages": "dialog"})
    turns = [{"from": "human", "value": "Hi"}, {"from": "gpt", "value": "Hello"}]
    assert normalise_row({"dialog": turns}, sharegpt, "sft")["messages"] == [user("Hi"), assistant("Hello")]


def test_dropped_columns_are_gone_before_anything_reads_the_row():
    row = {"messages": [user("<image>Who?"), assistant("Players.")], "images": ["1.jpg"]}
    dropped = fmt(drop_columns=["images"])
    assert normalise_row(row, dropped, "sft") == {"messages": row["messages"]}
    assert unused_columns(list(row), dropped, "sft") == []
