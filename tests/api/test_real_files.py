"""Real-shaped files, registered through the API of one real server: LLaMA-Factory's demo files (alpaca_en_demo,
sharegpt with tools, kto_en_demo, mllm_demo), OpenAI's chat fine-tuning format with tool calls, TRL's documented
dataset types and verl's GSM8K parquet layout, each written here from its format's documentation, with the rows
the engines must receive. Nothing in them is dropped without a word: files the platform cannot train as they mean
are refused saying why, and the columns nothing reads are named in the registration's answer."""

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

# ---- the files, as their formats' documentation lays them out ----------------------------------------------

# LLaMA-Factory data/alpaca_en_demo.json: instruction, input (often empty), output.
ALPACA = [
    {"instruction": "Describe a process of making crepes.", "input": "", "output": "Whisk flour, eggs and milk."},
    {
        "instruction": "Transform the following sentence using a synonym.",
        "input": "The car sped quickly.",
        "output": "The car accelerated rapidly.",
    },  # noqa: E501
    {"instruction": "Generate a list of five fruits.", "input": "", "output": "Apple, pear, plum, fig, kiwi."},
    {"instruction": "Translate into French.", "input": "Good morning", "output": "Bonjour"},
]
# Its entry in LLaMA-Factory's data/dataset_info.json, as a user pastes it: LLaMA-Factory's own column keys.
ALPACA_COLUMNS = {"prompt": "instruction", "query": "input", "response": "output"}

# LLaMA-Factory data/glaive_toolcall_en_demo.json: sharegpt turns with a function call and its observation.
WEATHER_TOOL = {
    "name": "get_weather",
    "description": "The weather in a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
GLAIVE = [
    {
        "conversations": [
            {"from": "human", "value": f"What is the weather in {city}?"},
            {"from": "function_call", "value": json.dumps({"name": "get_weather", "arguments": {"city": city}})},
            {"from": "observation", "value": json.dumps({"weather": "sunny"})},
            {"from": "gpt", "value": f"It is sunny in {city}."},
        ],
        "system": "You may call functions.",
        "tools": json.dumps([WEATHER_TOOL]),
    }
    for city in ("Paris", "Oslo", "Lima")
]
GLAIVE_ENTRY = {"columns": {"messages": "conversations", "system": "system", "tools": "tools"}}

# LLaMA-Factory data/kto_en_demo.json: sharegpt `messages` with a boolean `label` per answer (kto_tag).
KTO = [
    {
        "messages": [
            {"content": "What is the capital of France?", "role": "user"},
            {"content": answer, "role": "assistant"},
        ],
        "label": good,
    }
    for answer, good in (("Paris.", True), ("Berlin.", False), ("It is Paris.", True))
]
KTO_ENTRY = {
    "columns": {"messages": "messages", "kto_tag": "label"},
    "tags": {"role_tag": "role", "content_tag": "content", "user_tag": "user", "assistant_tag": "assistant"},
}

# LLaMA-Factory data/mllm_demo.json: an `<image>` placeholder in the text, the image files in `images`.
MLLM = [
    {
        "messages": [
            {"content": "<image>Who are they?", "role": "user"},
            {"content": "They are football players celebrating a goal.", "role": "assistant"},
        ],
        "images": [f"mllm_demo_data/{index}.jpg"],
    }
    for index in (1, 2, 3)
]

# OpenAI's chat fine-tuning format with function calling: `arguments` as JSON text, a `tools` list.
OPENAI_TOOLS = [
    {
        "messages": [
            {"role": "user", "content": f"What is the weather in {city}?"},
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "id": f"call_{index}",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": json.dumps({"city": city})},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": f"call_{index}", "content": "sunny"},
            {"role": "assistant", "content": f"It is sunny in {city}."},
        ],
        "tools": [{"type": "function", "function": WEATHER_TOOL}],
    }
    for index, city in enumerate(("Paris", "Oslo", "Lima"))
]

# TRL's documented dataset types.
TRL_PROMPT_COMPLETION = [
    {"prompt": "The sky is", "completion": " blue."},
    {"prompt": "The sun is", "completion": " bright."},
]
TRL_CONVERSATIONAL = [
    {"messages": [{"role": "user", "content": "What color is the sky?"}, {"role": "assistant", "content": "Blue."}]},
    {"messages": [{"role": "user", "content": "Where is the sun?"}, {"role": "assistant", "content": "In the sky."}]},
]
TRL_PREFERENCE = [
    {"prompt": "The sky is", "chosen": " blue.", "rejected": " green."},
    {"prompt": "The sun is", "chosen": " bright.", "rejected": " cold."},
]
TRL_UNPAIRED_PREFERENCE = [
    {"prompt": "The sky is", "completion": " blue.", "label": True},
    {"prompt": "The sun is", "completion": " cold.", "label": False},
]

# verl's example preprocessing, data_preprocess/gsm8k.py: the answer after "####" becomes reward_model.ground_truth.
GSM8K_INSTRUCTION = 'Let\'s think step by step and output the final answer after "####".'
GSM8K = [
    {
        "data_source": "openai/gsm8k",
        "prompt": [{"role": "user", "content": f"{question} {GSM8K_INSTRUCTION}"}],
        "ability": "math",
        "reward_model": {"style": "rule", "ground_truth": answer},
        "extra_info": {"split": "train", "index": index, "answer": f"... #### {answer}", "question": question},
    }
    for index, (question, answer) in enumerate((("Natalia sold 48 clips. How many?", "72"), ("2 + 3?", "5")))
]


def write_json(path: Path, rows: list[dict]) -> Path:
    path.write_text(json.dumps(rows, ensure_ascii=False, indent=2))
    return path


def write_jsonl(path: Path, rows: list[dict], separators: tuple[str, str] = (", ", ": ")) -> Path:
    path.write_text("".join(json.dumps(row, separators=separators) + "\n" for row in rows))
    return path


# ---- through the API ------------------------------------------------------------------------------------


def register(server, name: str, path: Path, kind: str, **fields):
    return server.api.post("/datasets", json={"name": name, "path": str(path), "kind": kind, **fields})


def registered(server, name: str, path: Path, kind: str, **fields) -> dict:
    response = register(server, name, path, kind, **fields)
    assert response.status_code == 201, response.text
    return response.json()


def normalised_rows(server, name: str) -> list[dict]:
    page = server.api.get(f"/datasets/{name}/rows", params={"normalised": True, "limit": 100}).json()
    assert all(row["problem"] is None for row in page["rows"]), page
    return [row["data"] for row in page["rows"]]


def refusal(server, name: str, path: Path, kind: str, **fields) -> dict[str, str]:
    """The 422's messages by field, and the dataset not registered."""
    response = register(server, name, path, kind, **fields)
    assert response.status_code == 422, response.text
    assert server.api.get(f"/datasets/{name}").status_code == 404
    return {error["field"]: error["message"] for error in response.json()["errors"]}


def test_alpaca_with_llama_factorys_own_mapping_keeps_input_in_every_row_that_has_one(server, tmp_path):
    path = write_json(tmp_path / "alpaca_en_demo.json", ALPACA)
    dataset = registered(server, "alpaca-en-demo", path, "sft", field_mapping=ALPACA_COLUMNS)
    assert dataset["preset"] == "alpaca" and dataset["unused_columns"] == []
    expected = [
        {
            "messages": [
                {"role": "user", "content": "\n".join(part for part in (row["instruction"], row["input"]) if part)},
                {"role": "assistant", "content": row["output"]},
            ]
        }
        for row in ALPACA
    ]
    assert normalised_rows(server, "alpaca-en-demo") == expected
    assert (
        expected[1]["messages"][0]["content"]
        == "Transform the following sentence using a synonym.\nThe car sped quickly."
    )

    # The platform's own names for the same columns read `input` nowhere, and say so.
    copy = write_json(tmp_path / "alpaca_copy.json", [{**row, "id": index} for index, row in enumerate(ALPACA)])
    mapped = registered(
        server,
        "alpaca-platform-fields",
        copy,
        "sft",
        preset="platform",
        field_mapping={"prompt": "instruction", "response": "output"},
    )
    assert mapped["unused_columns"] == ["input", "id"]


def test_sharegpt_with_its_dataset_info_entry_and_tool_calls(server, tmp_path):
    path = write_json(tmp_path / "glaive_toolcall_en_demo.json", GLAIVE)
    dataset = registered(server, "glaive", path, "sft", field_mapping=GLAIVE_ENTRY["columns"])
    assert dataset["preset"] == "sharegpt" and dataset["unused_columns"] == []
    [first, *_] = normalised_rows(server, "glaive")
    assert first == {
        "messages": [
            {"role": "system", "content": "You may call functions."},
            {"role": "user", "content": "What is the weather in Paris?"},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {"type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}
                ],
            },
            {"role": "tool", "content": json.dumps({"weather": "sunny"})},
            {"role": "assistant", "content": "It is sunny in Paris."},
        ],
        "tools": [{"type": "function", "function": WEATHER_TOOL}],
    }


def test_kto_style_files_are_refused_saying_what_they_are(server, tmp_path):
    kto = write_json(tmp_path / "kto_en_demo.json", KTO)
    for kind in ("sft", "dpo"):
        errors = refusal(server, f"kto-{kind}", kto, kind)
        assert "KTO-style unpaired preference data" in errors["path"], errors
        assert "does not train" in errors["path"]
    # Its dataset_info.json entry: `kto_tag` is no field the platform reads.
    errors = refusal(server, "kto-entry", kto, "sft", field_mapping=KTO_ENTRY["columns"], tags=KTO_ENTRY["tags"])
    assert "is not a field" in errors["field_mapping.kto_tag"], errors

    unpaired = write_jsonl(tmp_path / "unpaired_preference.jsonl", TRL_UNPAIRED_PREFERENCE)
    errors = refusal(server, "unpaired", unpaired, "sft")
    assert "KTO-style unpaired preference data" in errors["path"] and "labelled false" in errors["path"]
    # A CSV export of it (every CSV column is text) is the same data.
    csv = tmp_path / "unpaired.csv"
    csv.write_text("prompt,completion,label\nThe sky is, blue.,true\nThe sun is, cold.,false\n")
    assert "KTO-style" in refusal(server, "unpaired-csv", csv, "sft")["path"]


def test_a_multimodal_file_is_refused_unless_its_media_are_dropped_on_purpose(server, tmp_path):
    path = write_json(tmp_path / "mllm_demo.json", MLLM)
    errors = refusal(server, "mllm", path, "sft")
    assert "multimodal training is not supported" in errors["path"] and "'images'" in errors["path"], errors

    dataset = registered(server, "mllm-text", path, "sft", drop_columns=["images"])
    assert dataset["dropped_columns"] == ["images"] and dataset["unused_columns"] == []
    assert server.api.get("/datasets/mllm-text").json()["dropped_columns"] == ["images"]
    assert normalised_rows(server, "mllm-text")[0] == {"messages": MLLM[0]["messages"]}
    # Its format changed in place keeps what was dropped.
    changed = server.api.patch("/datasets/mllm-text", json={"preset": "platform", "description": "text only"})
    assert changed.status_code == 200, changed.text
    assert changed.json()["dropped_columns"] == ["images"]

    # The same by upload, and a column that is not there cannot be dropped.
    content = json.dumps(MLLM[:2]).encode()
    params = {"name": "mllm-upload", "kind": "sft", "filename": "mllm.json"}
    refused = server.api.post("/datasets/upload", params=params, content=content)
    assert refused.status_code == 422 and "multimodal training is not supported" in refused.text
    uploaded = server.api.post("/datasets/upload", params={**params, "drop_columns": ["images"]}, content=content)
    assert uploaded.status_code == 201, uploaded.text
    assert uploaded.json()["dropped_columns"] == ["images"]
    errors = refusal(server, "mllm-absent", path, "sft", drop_columns=["images", "videos"])
    assert errors == {"drop_columns.1": "no column 'videos' (columns: messages, images)"}


def test_an_openai_tool_call_file_gives_the_same_rows_with_and_without_its_preset(server, tmp_path):
    # Two copies (one content registers once), the same rows.
    named = write_jsonl(tmp_path / "openai_named.jsonl", OPENAI_TOOLS)
    detected = write_jsonl(tmp_path / "openai_detected.jsonl", OPENAI_TOOLS, separators=(",", ":"))
    assert registered(server, "openai-named", named, "sft", preset="openai")["preset"] == "openai"
    assert registered(server, "openai-detected", detected, "sft")["preset"] is None  # the platform's own fields
    rows = normalised_rows(server, "openai-named")
    assert normalised_rows(server, "openai-detected") == rows
    call = rows[0]["messages"][1]
    assert call == {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {"id": "call_0", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}
        ],
    }


def test_trls_documented_types(server, tmp_path):
    standard = registered(server, "trl-standard", write_jsonl(tmp_path / "pc.jsonl", TRL_PROMPT_COMPLETION), "sft")
    assert standard["preset"] == "trl-prompt-completion"
    assert normalised_rows(server, "trl-standard") == [
        {"prompt": row["prompt"], "response": row["completion"]} for row in TRL_PROMPT_COMPLETION
    ]
    conversational = registered(server, "trl-chat", write_jsonl(tmp_path / "chat.jsonl", TRL_CONVERSATIONAL), "sft")
    assert conversational["preset"] is None
    assert normalised_rows(server, "trl-chat") == TRL_CONVERSATIONAL
    preference = registered(server, "trl-preference", write_jsonl(tmp_path / "pref.jsonl", TRL_PREFERENCE), "dpo")
    assert preference["preset"] is None
    assert normalised_rows(server, "trl-preference") == TRL_PREFERENCE


def test_verls_gsm8k_layout(server, tmp_path):
    path = tmp_path / "gsm8k_train.parquet"
    pq.write_table(pa.Table.from_pylist(GSM8K), path)
    dataset = registered(server, "gsm8k", path, "grpo")
    assert dataset["preset"] == "verl-rl" and dataset["unused_columns"] == []
    first = normalised_rows(server, "gsm8k")[0]
    assert first["solution"] == "72" and first["prompt"] == GSM8K[0]["prompt"]
    assert first["reward_model"] == GSM8K[0]["reward_model"] and first["extra_info"] == GSM8K[0]["extra_info"]


def test_a_number_where_text_belongs_is_a_finding_naming_its_row_and_field(server, tmp_path):
    rows = [
        {"prompt": "What is 12345 in words?", "response": "twelve thousand ..."},
        {"prompt": "Echo 12345", "response": 12345},
    ]
    path = write_jsonl(tmp_path / "numbers.jsonl", rows)
    response = register(server, "numbers", path, "sft")
    assert response.status_code == 422
    [error, *_] = response.json()["errors"]
    assert (error["field"], error["row"], error["message"]) == ("path", 2, "field 'response' must be text, got int")

    alpaca = write_json(tmp_path / "alpaca_numbers.json", [{"instruction": "Echo 7", "output": 7}] + ALPACA)
    response = register(server, "alpaca-numbers", alpaca, "sft", preset="alpaca")
    assert response.status_code == 422
    assert response.json()["errors"][0]["row"] == 1
    assert response.json()["errors"][0]["message"] == "field 'output' must be text, got int"


def test_unknown_mapping_keys_are_refused_by_name(server, tmp_path):
    path = write_json(tmp_path / "alpaca_keys.json", ALPACA[:3])
    errors = refusal(server, "keys", path, "sft", field_mapping={"prompt": "instruction", "answer": "output"})
    assert set(errors) == {"field_mapping.answer"} and "is not a field" in errors["field_mapping.answer"]
    # A key this preset does not read: TRL's prompt-completion has no `query`.
    errors = refusal(
        server, "keys-preset", path, "sft", preset="trl-prompt-completion", field_mapping={"query": "input"}
    )
    assert set(errors) == {"field_mapping.query"}


def test_the_cli_registration_line_names_the_columns_training_will_not_read(server, tmp_path):
    path = write_json(tmp_path / "alpaca_extra.json", [{**row, "source": "demo"} for row in ALPACA])
    result = server.cli("datasets", "register", str(path), "-a", "sft", "--name", "alpaca-cli", "--preset", "alpaca")
    assert result.returncode == 0, result.stderr
    assert "columns training will not read: source" in result.stdout

    media = write_json(tmp_path / "mllm_cli.json", MLLM[1:])
    dropped = server.cli("datasets", "register", str(media), "-a", "sft", "--name", "mllm-cli", "--drop", "images")
    assert dropped.returncode == 0, dropped.stderr
    assert "dropped on purpose: images" in dropped.stdout


def test_a_job_given_such_files_by_path_is_refused_as_registration_refuses_them(server, tmp_path, demo_assets):
    kto = write_json(tmp_path / "kto_en_demo.json", KTO)
    mllm = write_json(tmp_path / "mllm_demo.json", MLLM)
    body = {
        "name": "kto-by-path",
        "algorithm": "sft",
        "model_path": str(demo_assets["model"]),
        "dataset_paths": [str(kto), str(mllm)],
        "params": {"max_steps": 1},
    }
    answer = server.api.post("/jobs", json=body)
    assert answer.status_code == 422, answer.text
    errors = {error["field"]: error["message"] for error in answer.json()["errors"]}
    assert "KTO-style unpaired preference data" in errors["dataset_paths.0"], errors
    assert "multimodal training is not supported" in errors["dataset_paths.1"], errors
