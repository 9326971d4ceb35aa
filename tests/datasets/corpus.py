"""Files in the shapes that circulate (tests for issue "bring your own data"): one real-shaped file per format the
platform reads, and a copy of the demo model whose chat template renders tools and tool calls, as real ones do."""

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

# A ChatML template that renders a `tools` list into the system turn and an assistant's tool calls, the way the
# templates of tool-calling models do (the demo model's own template ignores both).
TOOL_TEMPLATE = (
    "{%- if tools %}<|im_start|>system\n"
    "{%- if messages[0].role == 'system' %}{{ messages[0].content }}\n\n{% endif %}"
    "Tools:\n{% for tool in tools %}{{ tool | tojson }}\n{% endfor %}<|im_end|>\n"
    "{%- elif messages[0].role == 'system' %}<|im_start|>system\n{{ messages[0].content }}<|im_end|>\n{%- endif %}"
    "{%- for m in messages %}{%- if m.role != 'system' %}<|im_start|>{{ m.role }}\n{{ m.content }}"
    "{%- if m.tool_calls %}{% for call in m.tool_calls %}<tool_call>{{ call.function | tojson }}</tool_call>"
    "{% endfor %}{% endif %}<|im_end|>\n{%- endif %}{%- endfor %}"
    "{%- if add_generation_prompt %}<|im_start|>assistant\n{%- endif %}"
)


def tool_aware_model(demo_model: Path, directory: Path) -> Path:
    from transformers import AutoTokenizer

    shutil.copytree(demo_model, directory)
    tokenizer = AutoTokenizer.from_pretrained(directory)
    tokenizer.chat_template = TOOL_TEMPLATE
    tokenizer.save_pretrained(directory)
    return directory


# ---- the corpus: one file per shape ---------------------------------------------------------------------------

QUESTIONS = [(f"What is {a} plus {b}?", a + b) for a, b in ((3, 4), (12, 9), (7, 7), (20, 1), (5, 8), (6, 11))]
SYSTEM = "Answer with the number."
WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "weather",
        "description": "The weather in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}


def _write_json(path: Path, rows: list[dict]) -> Path:
    path.write_text(json.dumps(rows, ensure_ascii=False, indent=1))
    return path


def _write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    return path


def sharegpt(path: Path) -> Path:
    """LLaMA-Factory's default: `conversations` of from/value turns, a `system` column, two rounds per row."""
    rows = [
        {
            "conversations": [
                {"from": "human", "value": question},
                {"from": "gpt", "value": f"It is {answer}."},
                {"from": "human", "value": "And doubled?"},
                {"from": "gpt", "value": f"It is {2 * answer}."},
            ],
            "system": SYSTEM,
        }
        for question, answer in QUESTIONS
    ]
    return _write_json(path, rows)


def alpaca(path: Path) -> Path:
    """Alpaca with `input`, `system` and `history` (LLaMA-Factory joins instruction and input with a newline)."""
    rows = [
        {
            "instruction": "Add the two numbers.",
            "input": question.removeprefix("What is ").removesuffix("?"),
            "output": str(answer),
            "system": SYSTEM,
            "history": [["What do you do?", "I add numbers."]] if index % 2 else [],
        }
        for index, (question, answer) in enumerate(QUESTIONS)
    ]
    return _write_json(path, rows)


def openai_tools(path: Path) -> Path:
    """OpenAI messages with a tool call (content null), the tool's answer, and a `tools` column."""
    cities = ["Paris", "Oslo", "Lima", "Rome", "Kyiv", "Doha"]
    rows = [
        {
            "messages": [
                {"role": "system", "content": SYSTEM},
                {"role": "user", "content": f"Weather in {city}?"},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": f"call_{index}",
                            "type": "function",
                            "function": {"name": "weather", "arguments": json.dumps({"city": city})},
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": f"call_{index}", "content": "sunny"},
                {"role": "assistant", "content": f"It is sunny in {city}."},
            ],
            "tools": [WEATHER_TOOL],
        }
        for index, city in enumerate(cities)
    ]
    return _write_jsonl(path, rows)


def trl_prompt_completion(path: Path) -> Path:
    """TRL's conversational prompt-completion type."""
    rows = [
        {
            "prompt": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}],
            "completion": [{"role": "assistant", "content": f"It is {answer}."}],
        }
        for question, answer in QUESTIONS
    ]
    return _write_jsonl(path, rows)


def implicit_preference(path: Path) -> Path:
    """TRL's preference type with an implicit prompt: chosen and rejected are whole conversations."""
    rows = [
        {
            "chosen": [{"role": "user", "content": question}, {"role": "assistant", "content": f"It is {answer}."}],
            "rejected": [{"role": "user", "content": question}, {"role": "assistant", "content": "No idea."}],
        }
        for question, answer in QUESTIONS
    ]
    return _write_jsonl(path, rows)


def sharegpt_preference(path: Path) -> Path:
    """LLaMA-Factory's ranking data: the prompt as sharegpt turns, chosen and rejected as one turn each."""
    rows = [
        {
            "conversations": [{"from": "human", "value": question}],
            "chosen": {"from": "gpt", "value": f"It is {answer}."},
            "rejected": {"from": "gpt", "value": f"It is {answer + 1}."},
        }
        for question, answer in QUESTIONS
    ]
    return _write_json(path, rows)


def verl_rl(path: Path) -> Path:
    """verl's RLHFDataset layout: a chat prompt and the answer nested in `reward_model.ground_truth`."""
    rows = [
        {
            "data_source": "arithmetic",
            "prompt": [{"role": "user", "content": question}],
            "ability": "math",
            "reward_model": {"style": "rule", "ground_truth": str(answer)},
            "extra_info": {"split": "train", "index": index},
        }
        for index, (question, answer) in enumerate(QUESTIONS)
    ]
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def csv_file(path: Path) -> Path:
    """A spreadsheet export: alpaca's columns, one quoted field with a comma and a newline."""
    lines = ["instruction,input,output"]
    for question, answer in QUESTIONS:
        lines.append(f'"{question}","Answer briefly, please.\nNo working.",{answer}')
    path.write_text("\n".join(lines) + "\n")
    return path


def save_to_disk_folder(path: Path) -> Path:
    """`datasets.Dataset.save_to_disk` of prompt/response rows (Arrow files next to HF's own JSON metadata)."""
    from datasets import Dataset

    rows = [{"prompt": question, "response": f"It is {answer}."} for question, answer in QUESTIONS]
    Dataset.from_list(rows).save_to_disk(str(path))
    return path


def hub_snapshot(path: Path) -> Path:
    """A downloaded hub dataset repository: a card and Parquet splits under data/ (train 4 rows, test 2)."""
    (path / "data").mkdir(parents=True)
    (path / "README.md").write_text("---\nlicense: mit\n---\n# arithmetic\n")
    rows = [{"prompt": question, "completion": f"It is {answer}."} for question, answer in QUESTIONS]
    pq.write_table(pa.Table.from_pylist(rows[:4]), path / "data" / "train-00000-of-00001.parquet")
    pq.write_table(pa.Table.from_pylist(rows[4:]), path / "data" / "test-00000-of-00001.parquet")
    return path


# name → (builder, file name, kind, the preset detection must find: None for the platform's own fields)
CORPUS = {
    "sharegpt": (sharegpt, "sharegpt.json", "sft", "sharegpt"),
    "alpaca": (alpaca, "alpaca.json", "sft", "alpaca"),
    "openai-tools": (openai_tools, "openai_tools.jsonl", "sft", None),  # the platform's own `messages`
    "trl-prompt-completion": (trl_prompt_completion, "prompt_completion.jsonl", "sft", "trl-prompt-completion"),
    "csv": (csv_file, "alpaca.csv", "sft", "alpaca"),
    "save-to-disk": (save_to_disk_folder, "saved", "sft", None),
    "hub-snapshot": (hub_snapshot, "snapshot", "sft", "trl-prompt-completion"),
    "implicit-preference": (implicit_preference, "implicit.jsonl", "dpo", "trl-preference"),
    "sharegpt-preference": (sharegpt_preference, "ranking.json", "dpo", "sharegpt-preference"),
    "verl-rl": (verl_rl, "verl_rl.parquet", "grpo", "verl-rl"),
}


def build_corpus(directory: Path) -> dict[str, Path]:
    directory.mkdir(parents=True, exist_ok=True)
    return {name: builder(directory / file_name) for name, (builder, file_name, _kind, _preset) in CORPUS.items()}
