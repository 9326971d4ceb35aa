"""Datasets in verl's parquet layouts, and the platform's rewards as verl's custom reward function."""

import importlib.util
import json

import pyarrow as pa
import pyarrow.parquet as pq

from training_platform.contract.data import DataFormat
from training_platform.engines.verl.data import convert
from training_platform.engines.verl.rewards import write_reward_file
from training_platform.rewards import RewardSpec


def test_sft_rows_become_messages(tmp_path, demo_assets):
    target = convert([str(demo_assets["sft"])], tmp_path / "sft.parquet", "sft")
    rows = pq.read_table(target).to_pylist()
    # JSON text, which engines/verl/sft_dataset.py parses: as Parquet structs every message would carry every key.
    assert len(rows) == 256 and set(rows[0]) == {"messages", "tools"} and rows[0]["tools"] == "null"
    user, assistant = json.loads(rows[0]["messages"])
    assert user["role"] == "user" and assistant["role"] == "assistant" and assistant["content"].startswith("The answer")


def test_the_verl_rl_preset_hands_the_nested_answer_to_the_reward(tmp_path):
    rows = [
        {
            "data_source": "arithmetic",
            "prompt": [{"role": "user", "content": "What is 3 plus 4?"}],
            "ability": "math",
            "reward_model": {"style": "rule", "ground_truth": "7"},
            "extra_info": {"index": 0},
        }
    ]
    source = tmp_path / "verl.parquet"
    pq.write_table(pa.Table.from_pylist(rows), source)
    formats = {str(source): DataFormat(preset="verl-rl")}
    target = convert([str(source)], tmp_path / "rl.parquet", "grpo", "train", "solution", formats)
    row = pq.read_table(target).to_pylist()[0]
    assert row["reward_model"] == {"style": "rule", "ground_truth": "7"} and row["ability"] == "math"
    assert row["prompt"] == rows[0]["prompt"] and json.loads(row["extra_info"]["row"])["solution"] == "7"


def test_rl_rows_carry_prompt_ground_truth_and_the_whole_row(tmp_path, demo_assets):
    target = convert([str(demo_assets["grpo"])], tmp_path / "rl.parquet", "grpo", "train", answer_field="solution")
    row = pq.read_table(target).to_pylist()[3]
    assert set(row) == {"data_source", "prompt", "ability", "reward_model", "extra_info"}
    assert row["data_source"] == "demo_arithmetic" and row["prompt"][0]["role"] == "user"
    original = json.loads(row["extra_info"]["row"])
    assert row["reward_model"] == {"style": "rule", "ground_truth": original["solution"]}
    assert (row["extra_info"]["split"], row["extra_info"]["index"]) == ("train", 3)
    assert not list(tmp_path.glob(".*partial"))


def test_the_reward_file_scores_like_the_reward_module(tmp_path):
    specs = [
        RewardSpec(type="math_verify", extraction="last_number"),
        RewardSpec(type="format_check", weight=0.5, pattern=r"The answer is -?\d+\."),
    ]
    path = write_reward_file(tmp_path / "reward_fn.py", specs)
    spec = importlib.util.spec_from_file_location("job_reward", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    extra = {"row": json.dumps({"prompt": "What is 2 plus 2?", "solution": "4"})}
    assert module.compute_score("demo", "The answer is 4.", "4", extra) == 1.5
    assert module.compute_score("demo", "The answer is 5.", "4", extra) == 0.5
    assert module.compute_score("demo", "no idea", "4", extra) == 0.0
