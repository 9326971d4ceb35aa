"""Bring a LLaMA-Factory project (issue 29): its data/dataset_info.json, with the published entries and demo files in
their published shapes (LLaMA-Factory's data/README.md and data/*.json), imported through a real server: the local
text datasets registered with their formats and read back in the platform's rows, the others skipped with the
reason; bad files refused whole with a clear message, a bad entry failed alone."""

import json
from pathlib import Path

import pytest

from tests.datasets.files import write_jsonl
from training_platform.contract.data import ShareGptTags
from training_platform.datafiles.limits import DEFAULT_LIMITS
from training_platform.datasets.llamafactory import (
    INFO_FILE,
    MAX_INFO_BYTES,
    plan_entry,
    plan_import,
    read_dataset_info,
)
from training_platform.errors import InvalidInputError

# The entries of LLaMA-Factory's own data/dataset_info.json for its demo files, and hub entries as it publishes them.
PUBLISHED_INFO = {
    "identity": {"file_name": "identity.json"},
    "alpaca_en_demo": {"file_name": "alpaca_en_demo.json"},
    "glaive_toolcall_en_demo": {
        "file_name": "glaive_toolcall_en_demo.json",
        "formatting": "sharegpt",
        "columns": {"messages": "conversations", "tools": "tools"},
    },
    "mllm_demo": {
        "file_name": "mllm_demo.json",
        "formatting": "sharegpt",
        "columns": {"messages": "messages", "images": "images"},
        "tags": {"role_tag": "role", "content_tag": "content", "user_tag": "user", "assistant_tag": "assistant"},
    },
    "dpo_en_demo": {
        "file_name": "dpo_en_demo.json",
        "ranking": True,
        "formatting": "sharegpt",
        "columns": {"messages": "conversations", "chosen": "chosen", "rejected": "rejected"},
    },
    "kto_en_demo": {
        "file_name": "kto_en_demo.json",
        "formatting": "sharegpt",
        "columns": {"messages": "messages", "kto_tag": "label"},
        "tags": {"role_tag": "role", "content_tag": "content", "user_tag": "user", "assistant_tag": "assistant"},
    },
    "wiki_demo": {"file_name": "wiki_demo.txt", "columns": {"prompt": "text"}},
    "c4_demo": {"file_name": "c4_demo.jsonl", "columns": {"prompt": "text"}},
    "alpaca_en": {
        "hf_hub_url": "llamafactory/alpaca_en",
        "ms_hub_url": "llamafactory/alpaca_en",
        "om_hub_url": "HaM/alpaca_en",
    },
    "glaive_toolcall_en": {
        "hf_hub_url": "llamafactory/glaive_toolcall_en",
        "formatting": "sharegpt",
        "columns": {"messages": "conversations", "tools": "tools"},
    },
}
OPENAI_TAGS = {"role_tag": "role", "content_tag": "content", "user_tag": "user", "assistant_tag": "assistant"}
TOOLS = json.dumps(
    [
        {
            "name": "get_weather",
            "description": "The weather in a city",
            "parameters": {"type": "object", "properties": {}},
        }
    ]
)


def turn(role: str, value: str) -> dict:
    return {"from": role, "value": value}


def demo_files() -> dict[str, object]:
    """A few rows of each demo file, in the shapes LLaMA-Factory publishes them (JSON arrays, one JSON Lines file)."""
    call = json.dumps({"name": "get_weather", "arguments": {"city": "Paris"}})
    return {
        "identity.json": [
            {"instruction": "hi", "input": "", "output": "Hello! I am {{name}}, an AI assistant."},
            {"instruction": "Who are you?", "input": "", "output": "I am {{name}}, developed by {{author}}."},
        ],
        "alpaca_en_demo.json": [
            {"instruction": "Name a colour.", "input": "", "output": "Blue."},
            {"instruction": "Translate to French.", "input": "Good morning", "output": "Bonjour"},
        ],
        "glaive_toolcall_en_demo.json": [
            {
                "conversations": [
                    turn("human", "What is the weather in Paris?"),
                    turn("function_call", call),
                    turn("observation", json.dumps({"temperature": 21})),
                    turn("gpt", "It is 21 degrees in Paris."),
                ],
                "tools": TOOLS,
            },
            {"conversations": [turn("human", "Hello"), turn("gpt", "Hi! How can I help?")], "tools": "[]"},
        ],
        "mllm_demo.json": [
            {
                "messages": [
                    {"content": "<image>Who are they?", "role": "user"},
                    {"content": "Two footballers.", "role": "assistant"},
                ],
                "images": ["mllm_demo_data/1.jpg"],
            }
        ],
        "dpo_en_demo.json": [
            {
                "conversations": [turn("human", "Suggest a name for a cat.")],
                "chosen": turn("gpt", "How about Miso?"),
                "rejected": turn("gpt", "Cats do not need names."),
            },
            {
                "conversations": [turn("human", "Hi"), turn("gpt", "Hello!"), turn("human", "Tell me a joke.")],
                "chosen": turn("gpt", "Why did the chicken cross the road? To get to the other side."),
                "rejected": turn("gpt", "No."),
            },
        ],
        "kto_en_demo.json": [
            {
                "messages": [
                    {"content": "Summarise: the sky is blue.", "role": "user"},
                    {"content": "The sky is blue.", "role": "assistant"},
                ],
                "label": True,
            }
        ],
    }


def write_project(root: Path, info: dict) -> Path:
    """LLaMA-Factory's layout: data/dataset_info.json beside the files it names."""
    data = root / "data"
    data.mkdir(parents=True)
    for name, rows in demo_files().items():
        (data / name).write_text(json.dumps(rows, indent=2, ensure_ascii=False))
    write_jsonl(data / "c4_demo.jsonl", [{"text": "A document to pre-train on."}])
    (data / "wiki_demo.txt").write_text("A document to pre-train on.\n")
    (data / "dataset_info.json").write_text(json.dumps(info, indent=2))
    return data / "dataset_info.json"


def by_entry(answer: dict) -> dict[str, dict]:
    return {entry["entry"]: entry for entry in answer["entries"]}


def test_llamafactorys_own_demo_datasets_import_with_their_formats(server, tmp_path):
    info = write_project(tmp_path / "LLaMA-Factory", PUBLISHED_INFO)
    answer = server.api.post("/datasets/import/llamafactory", json={"path": str(info.parent)})
    assert answer.status_code == 200, answer.text
    entries = by_entry(answer.json())
    assert list(entries) == list(PUBLISHED_INFO)  # every entry, in the file's order
    registered = {name: (e["kind"], e["preset"]) for name, e in entries.items() if e["outcome"] == "registered"}
    assert registered == {
        "identity": ("sft", "alpaca"),
        "alpaca_en_demo": ("sft", "alpaca"),
        "glaive_toolcall_en_demo": ("sft", "sharegpt"),
        "dpo_en_demo": ("dpo", "sharegpt-preference"),
    }
    skipped = {name: e["reason"] for name, e in entries.items() if e["outcome"] == "skipped"}
    assert set(skipped) == {"mllm_demo", "kto_en_demo", "wiki_demo", "c4_demo", "alpaca_en", "glaive_toolcall_en"}
    assert "multimodal training is not supported" in skipped["mllm_demo"]
    assert skipped["kto_en_demo"].startswith("columns.kto_tag: KTO-style unpaired preference data")
    assert "pre-training text" in skipped["c4_demo"] and "pre-training text" in skipped["wiki_demo"]
    assert skipped["alpaca_en"].startswith("on the Hugging Face hub (llamafactory/alpaca_en), ModelScope (")

    # The datasets are the platform's own now: their records, and their rows in the platform's shape.
    record = server.api.get("/datasets/glaive_toolcall_en_demo").json()
    assert (record["kind"], record["preset"], record["num_rows"], record["num_invalid"]) == ("sft", "sharegpt", 2, 0)
    assert record["field_mapping"] == {"messages": "conversations", "tools": "tools"}
    assert record["path"] == str((info.parent / "glaive_toolcall_en_demo.json").resolve())

    def rows(name: str) -> list[dict]:
        page = server.api.get(f"/datasets/{name}/rows", params={"normalised": True}).json()
        assert all(row["problem"] is None for row in page["rows"]), page
        return [row["data"] for row in page["rows"]]

    chat = rows("glaive_toolcall_en_demo")[0]
    assert [m["role"] for m in chat["messages"]] == ["user", "assistant", "tool", "assistant"]
    assert chat["messages"][1]["tool_calls"][0]["function"] == {"name": "get_weather", "arguments": {"city": "Paris"}}
    assert chat["tools"][0] == {"type": "function", "function": json.loads(TOOLS)[0]}  # wrapped as OpenAI's
    assert rows("alpaca_en_demo")[1]["messages"] == [
        {"role": "user", "content": "Translate to French.\nGood morning"},
        {"role": "assistant", "content": "Bonjour"},
    ]
    preference = rows("dpo_en_demo")[1]
    assert [m["role"] for m in preference["prompt"]] == ["user", "assistant", "user"]
    assert preference["chosen"] == [
        {"role": "assistant", "content": demo_files()["dpo_en_demo.json"][1]["chosen"]["value"]}
    ]
    assert preference["rejected"] == [{"role": "assistant", "content": "No."}]

    # Again: every name is taken, which each entry says; skipped entries stay skipped.
    again = by_entry(server.api.post("/datasets/import/llamafactory", json={"path": str(info)}).json())
    assert again["identity"]["outcome"] == "failed" and "already registered" in again["identity"]["reason"]
    assert again["alpaca_en"]["outcome"] == "skipped"


def test_bad_files_are_refused_whole_and_a_bad_entry_fails_alone(server, tmp_path):
    def refusal(path: Path) -> str:
        answer = server.api.post("/datasets/import/llamafactory", json={"path": str(path)})
        assert answer.status_code == 422, answer.text
        [error] = answer.json()["errors"]
        assert error["field"] == "path"
        return error["message"]

    broken = tmp_path / "broken" / "dataset_info.json"
    broken.parent.mkdir()
    broken.write_text('{\n  "identity": {\n    "file_name": "identity.json"\n  }\n  "other": {}\n}\n')
    assert refusal(broken) == "dataset_info.json is not valid JSON: Expecting ',' delimiter (line 5, column 3)"
    large = tmp_path / "large.json"
    large.write_text(json.dumps({"x": {"file_name": "a" * MAX_INFO_BYTES}}))
    assert refusal(large) == "large.json is larger than 1 MiB"
    listed = tmp_path / "list.json"
    listed.write_text("[]")
    assert refusal(listed) == "list.json must be a JSON object of dataset descriptions by name, not a list"
    assert "not under the platform's data roots" in refusal(Path("/etc/hostname"))
    assert refusal(tmp_path / "nowhere.json") == f"{tmp_path / 'nowhere.json'} is not a file"

    (tmp_path / "secret.json").write_text(json.dumps([{"instruction": "a", "input": "", "output": "b"}]))
    project = tmp_path / "project" / "data"
    project.mkdir(parents=True)
    (project / "mine.json").write_text(json.dumps([{"instruction": "Say yes.", "input": "", "output": "Yes."}]))
    info = {
        "escaping": {"file_name": "../../secret.json"},
        "absolute": {"file_name": str(tmp_path / "secret.json")},
        "missing": {"file_name": "missing.json"},
        "wrong_type": {"file_name": "mine.json", "ranking": "false"},
        "mine": {"file_name": "mine.json", "colums": {"prompt": "instruction"}, "num_samples": 10},
    }
    (project / "dataset_info.json").write_text(json.dumps(info))
    answer = server.api.post("/datasets/import/llamafactory", json={"path": str(project), "prefix": "lf-"})
    assert answer.status_code == 200, answer.text
    entries = by_entry(answer.json())
    outcomes = {name: (e["outcome"], e["reason"]) for name, e in entries.items()}
    outside = f"is outside the folder of dataset_info.json ({project})"
    assert outcomes == {
        "escaping": ("failed", f"file_name '../../secret.json' {outside}"),
        "absolute": ("failed", f"file_name '{tmp_path / 'secret.json'}' {outside}"),
        "missing": ("failed", f"file_name 'missing.json': no such file in {project}"),
        "wrong_type": ("failed", "ranking: Input should be a valid boolean"),
        "mine": ("registered", None),
    }  # fmt: skip
    assert entries["mine"]["dataset"] == "lf-mine" and entries["mine"]["notes"] == [
        "unknown key 'colums' is not read (by LLaMA-Factory either)",
        "num_samples 10 (LLaMA-Factory's sampling when it trains) is not applied: the dataset holds every row",
    ]
    assert server.api.get("/datasets/lf-mine").json()["num_rows"] == 1
    assert server.api.get("/datasets/lf-escaping").status_code == 404


def test_the_cli_prints_each_entry_and_fails_when_one_failed(server, tmp_path):
    info = write_project(tmp_path, {**PUBLISHED_INFO, "missing": {"file_name": "missing.json"}})
    shown = server.cli("datasets", "import-llamafactory", str(info), "--prefix", "dry-", "--dry-run")
    assert shown.returncode == 1, shown.stderr  # an entry failed
    table = " ".join(shown.stdout.split())
    assert "dry-identity" in table and "would_register" in table and "no such file" in table
    assert table.endswith(f"4 would_register, 6 skipped, 1 failed ({info})")
    assert server.api.get("/datasets/dry-identity").status_code == 404  # a dry run registers nothing
    audited = server.api.get("/auth/audit").json()  # and leaves no audit line naming nothing
    assert not [entry for entry in audited if entry["action"] == "registered" and entry["resource_id"] is None]


@pytest.mark.parametrize(
    ("description", "kind", "preset", "field_mapping", "tags", "notes"),
    [
        # LLaMA-Factory's "openai" formatting of OpenAI's messages: the openai preset, which reads tool calls too.
        (
            {"formatting": "openai", "columns": {"messages": "messages"}, "tags": OPENAI_TAGS},
            "sft",
            "openai",
            {"messages": "messages"},
            {},
            [],
        ),
        # Other tags: the sharegpt preset reads the turns with them; alpaca's columns are not read of sharegpt data.
        (
            {"formatting": "sharegpt", "columns": {"messages": "dialog", "prompt": "q"}, "tags": {"role_tag": "who"}},
            "sft",
            "sharegpt",
            {"messages": "dialog"},
            {"role_tag": "who"},
            ["columns.prompt is not read: LLaMA-Factory reads no prompt of sharegpt supervised data"],
        ),
        # Alpaca preference data: the alpaca preset for DPO, its response column not read.
        (
            {"ranking": True, "columns": {"prompt": "q", "chosen": "good", "rejected": "bad", "response": "r"}},
            "dpo",
            "alpaca",
            {"prompt": "q", "chosen": "good", "rejected": "bad"},
            {},
            ["columns.response is not read: LLaMA-Factory reads no response of alpaca ranking data"],
        ),
    ],
)
def test_an_entry_is_planned_with_the_kind_preset_columns_and_tags_it_means(
    tmp_path, description, kind, preset, field_mapping, tags, notes
):
    (tmp_path / "data.json").write_text("[]")
    planned = plan_entry("data", {"file_name": "data.json", **description}, tmp_path / INFO_FILE, "", [tmp_path], False)
    assert planned.result.outcome == "would_register", planned.result
    request = planned.request
    assert (request.kind, request.preset, request.field_mapping) == (kind, preset, field_mapping)
    assert request.tags == ShareGptTags(**tags) and planned.result.notes == notes


def test_what_the_platform_would_read_differently_is_skipped(tmp_path):
    (tmp_path / "data.json").write_text("[]")
    (tmp_path / "folder").mkdir()
    entries = {
        "tools of preference data": (
            {"file_name": "data.json", "formatting": "sharegpt", "ranking": True, "columns": {"tools": "tools"}},
            "columns.tools: the platform's sharegpt-preference preset reads no such column of dpo datasets",
        ),
        "a folder": ({"file_name": "folder"}, "a folder: LLaMA-Factory reads every file in it as one dataset"),
        "a script": ({"script_url": "my_loader"}, "a dataset loading script (my_loader)"),
        "a cloud file": ({"cloud_file_name": "s3://bucket/d.json"}, "a file in cloud storage (s3://bucket/d.json)"),
    }
    for name, (description, reason) in entries.items():
        planned = plan_entry(name, description, tmp_path / INFO_FILE, "", [tmp_path], False)
        assert planned.result.outcome == "skipped" and planned.result.reason.startswith(reason), planned.result
        assert planned.request is None


def test_a_name_described_twice_is_read_as_llamafactory_reads_it_and_said(tmp_path):
    (tmp_path / "a.json").write_text("[]")
    info = tmp_path / INFO_FILE
    info.write_text('{"a": {"file_name": "x.json"}, "a": {"file_name": "a.json", "ranking": true, "ranking": false}}')
    [planned] = plan_import(info, read_dataset_info(info, DEFAULT_LIMITS), "", [tmp_path])
    assert (planned.result.outcome, planned.request.kind) == ("would_register", "sft")
    assert planned.result.notes == [
        "'a' is described more than once: the last description is read, as LLaMA-Factory does",
        "key 'ranking' is given more than once: the last is read",
    ]
    info.write_bytes(b'{"a": {"file_name": "\xff.json"}}')
    with pytest.raises(InvalidInputError, match="dataset_info.json is not UTF-8 text"):
        read_dataset_info(info, DEFAULT_LIMITS)
    info.write_text('{"a": ' + "[" * 100 + "]" * 100 + "}")
    with pytest.raises(InvalidInputError, match="nests deeper than 64 levels"):
        read_dataset_info(info, DEFAULT_LIMITS)
