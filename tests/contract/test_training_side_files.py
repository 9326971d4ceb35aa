"""The training process's files: metrics lines (NaN kept), the status file, and the control file."""

import json
import math
import threading

from training_platform.common.files import read_json, tail_lines, write_json_atomic
from training_platform.contract import control
from training_platform.contract.metrics import MetricsWriter, canonicalize, from_grouped, to_grouped
from training_platform.contract.status import TrainingState, TrainingStatus, read_status, write_status
from training_platform.engines.trl.keys import TRL_KEYS
from training_platform.engines.verl.keys import VERL_KEYS


def test_trl_keys_land_in_the_seed_groups_and_the_rest_keeps_its_name():
    raw = {
        "loss": 1.5,
        "grad_norm": 2.0,
        "learning_rate": 1e-5,
        "reward": 0.5,
        "reward_std": 0.1,
        "kl": 0.01,
        "rewards/accuracies": 0.75,
        "eval_loss": 1.7,
        "epoch": 0.5,
        "note": "text is not a metric",
    }
    values = canonicalize(raw, TRL_KEYS)
    record = to_grouped(values)
    assert record == {
        "loss": {"total_loss": 1.5},
        "gradient": {"actor_norm": 2.0},
        "learning_rate": 1e-5,
        "reward": {"mean": 0.5, "std": 0.1},
        "kl": {"mean": 0.01},
        "eval": {"loss": 1.7},
        "epoch": 0.5,
        "custom": {"rewards/accuracies": 0.75},
    }
    assert from_grouped({"step": 3, "timestamp": 1.0, **record}) == values


def test_verl_keys_map_and_a_second_key_for_the_same_field_keeps_its_name():
    raw = {
        "actor/pg_loss": 0.2,
        "critic/score/mean": 0.7,
        "timing_s/step": 3.0,
        "actor/lr": 1e-6,
        "train/lr": 2e-6,
        "response_length/mean": 100,
    }
    assert canonicalize(raw, VERL_KEYS) == {
        "policy_loss": 0.2,
        "reward_mean": 0.7,
        "step_time": 3.0,
        "learning_rate": 1e-6,
        "train/lr": 2e-6,
        "response_length/mean": 100.0,
    }


def test_ppo_with_the_kl_penalty_in_the_reward_fills_kl():
    raw = {"critic/vf_loss": 0.02, "actor/reward_kl_penalty": 0.05, "actor/reward_kl_penalty_coeff": 0.01}
    assert canonicalize(raw, VERL_KEYS) == {"value_loss": 0.02, "kl": 0.05, "actor/reward_kl_penalty_coeff": 0.01}


def test_each_line_is_flushed_at_once_and_non_finite_values_survive(tmp_path):
    writer = MetricsWriter(tmp_path / "m.jsonl", TRL_KEYS)
    writer.write(1, {"loss": float("nan"), "grad_norm": float("inf"), "epoch": 0.1}, anomaly={"type": "nan"})
    lines = (tmp_path / "m.jsonl").read_text().splitlines()  # read before close: no buffering
    record = json.loads(lines[0])
    assert record["step"] == 1 and record["epoch"] == 0.1 and record["timestamp"] > 0
    assert math.isnan(record["loss"]["total_loss"]) and record["gradient"]["actor_norm"] == math.inf
    assert record["anomaly"] == {"type": "nan"}
    writer.close()


def test_status_round_trip(tmp_path):
    status = TrainingStatus(job_id="j", status=TrainingState.RUNNING, current_step=3, total_steps=10, loss=1.25)
    write_status(tmp_path / "s.json", status)
    assert read_status(tmp_path / "s.json") == status
    assert read_status(tmp_path / "missing.json") is None


def test_atomic_json_never_shows_a_partial_file(tmp_path):
    path = tmp_path / "s.json"
    write_json_atomic(path, {"n": 0})
    stop = threading.Event()
    seen_bad = []

    def reader():
        while not stop.is_set():
            data = read_json(path)
            if not isinstance(data, dict) or len(data["payload"] if "payload" in data else "x") == 0:
                seen_bad.append(data)

    thread = threading.Thread(target=reader)
    thread.start()
    for n in range(300):
        write_json_atomic(path, {"n": n, "payload": "x" * 10_000})
    stop.set()
    thread.join()
    assert seen_bad == []
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_tail_lines_reads_only_the_end(tmp_path):
    path = tmp_path / "log"
    path.write_text("".join(f"line {i}\n" for i in range(100_000)))
    assert tail_lines(path, 3) == ["line 99997", "line 99998", "line 99999"]
    assert tail_lines(path, 0) == [] and tail_lines(tmp_path / "none", 5) == []
    assert len(tail_lines(path, 100_000)) == 100_000


def test_control_requests_are_seen_once(tmp_path):
    reader = control.ControlReader(tmp_path / "control.json")
    assert reader.pending_action() is None
    control.request(tmp_path / "control.json", control.ControlAction.PAUSE)
    assert reader.pending_action() == control.ControlAction.PAUSE
    assert reader.pending_action() is None
    control.clear(tmp_path / "control.json")
    assert reader.pending_action() is None
