"""Small real dataset files for the tests, in every format, clean and broken."""

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

TOPICS = [
    "the water cycle", "volcanoes", "photosynthesis", "the French revolution", "binary search", "compound interest",
    "black holes", "the immune system", "plate tectonics", "machine translation", "the printing press", "tides",
    "prime numbers", "the Roman empire", "climate zones", "vaccines", "electric motors", "supply and demand",
    "the human heart", "rainbows", "sorting algorithms", "the stock market", "glaciers", "bacteria",
]  # fmt: skip
ASKS = ["Explain {} to a ten year old.", "Write three quiz questions about {}.", "Summarise the history of {}."]


def clean_sft_rows() -> list[dict]:
    """Distinct prompts of similar length, a label column: nothing for an audit to find."""
    rows = []
    for index, topic in enumerate(TOPICS):
        ask = ASKS[index % len(ASKS)]
        rows.append(
            {
                "prompt": ask.format(topic),
                "response": f"Here is a short answer about {topic}, in a few plain sentences that stay on the topic.",
                "data_source": ["science", "history", "math"][index % 3],
            }
        )
    return rows


def write_jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return path


def write_json(path: Path, rows: list) -> Path:
    path.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    return path


def write_parquet(path: Path, rows: list[dict]) -> Path:
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


WRITERS = {"jsonl": write_jsonl, "json": write_json, "parquet": write_parquet}
