"""What the surgery tests share: a tiny Qwen2 configuration, a demo SFT job that keeps a checkpoint and an
evaluation every `every` steps, and the validation losses its trainer wrote (read from its metrics file, not from
the API under test)."""

import json
from pathlib import Path

from tests.support.helpers import ServerProcess

# A Qwen2 small enough to build in milliseconds, for checks that need real weights but no demo tokenizer.
TINY_QWEN2 = dict(
    vocab_size=1000,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=2,
    num_key_value_heads=1,
    tie_word_embeddings=False,
)


def train_evaluated_sft(server: ServerProcess, demo_assets: dict, name: str, steps: int, every: int) -> dict:
    job = server.create_job(
        name=name,
        algorithm="sft",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        eval_dataset_path=str(demo_assets["sft"]),
        params=dict(
            learning_rate=3e-3,
            batch_size=16,
            micro_batch_size=16,
            max_steps=steps,
            save_interval=every,
            eval_interval=every,
            save_total_limit=None,
        ),
        start=True,
    )
    job = server.wait_for_status(job["id"], "completed", "failed", timeout=300)
    assert job["status"] == "completed", job["error"]
    return job


def recorded_eval_losses(job: dict) -> dict[int, float]:
    path = Path(job["output_dir"]) / f"{job['id']}_metrics.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return {line["step"]: line["eval"]["loss"] for line in lines if "loss" in line.get("eval", {})}
