"""`tplat` against a real server: the demo, a followed job with progress, and clear errors."""

import json
from pathlib import Path

import pytest

from tests.support.helpers import ServerProcess, free_port
from training_platform.cli.jobs import _new_lines, build_params


def test_params_from_the_command_line_are_typed_and_nested(tmp_path):
    file = tmp_path / "p.json"
    file.write_text('{"learning_rate": 1e-5, "lora": {"rank": 16}}')
    params = build_params(file, ["lora.rank=8", "max_steps=10", "lr_scheduler=linear", 'rewards=[{"type": "custom"}]'])
    assert params == {
        "learning_rate": 1e-5,
        "lora": {"rank": 8},
        "max_steps": 10,
        "lr_scheduler": "linear",
        "rewards": [{"type": "custom"}],
    }


def test_followed_logs_print_only_new_lines():
    assert _new_lines(["a", "b", "c"], ["b", "c", "d", "e"]) == ["d", "e"]
    assert _new_lines([], ["a"]) == ["a"]
    assert _new_lines(["a"], ["x", "y"]) == ["x", "y"]


@pytest.fixture(scope="module")
def cli_server(tmp_path_factory):
    server = ServerProcess(home=tmp_path_factory.mktemp("cli_home"))
    server.start()
    demo = server.cli("demo")
    assert demo.returncode == 0, demo.stderr
    assert "created job demo-sft" in demo.stdout
    again = server.cli("demo")  # idempotent: what is there is kept
    assert again.returncode == 0 and "created" not in again.stdout
    yield server
    server.shutdown()


@pytest.mark.slow
def test_demo_job_runs_with_live_progress(cli_server):
    result = cli_server.cli("jobs", "start", "demo-sft", "--follow")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "200/200" in result.stdout and "job demo-sft is completed" in result.stdout
    listing = cli_server.cli("jobs", "list").stdout
    assert "demo-sft" in listing and "completed" in listing and "200/200" in listing
    checkpoints = cli_server.cli("jobs", "checkpoints", "demo-sft").stdout
    assert "checkpoint-200" in checkpoints and "final" in checkpoints
    logs = cli_server.cli("jobs", "logs", "demo-sft", "--lines", "3").stdout
    assert "train_runtime" in logs
    exported = cli_server.cli("jobs", "export", "demo-sft", "checkpoint-200")
    assert exported.returncode == 0, exported.stderr
    path = exported.stdout.strip().rsplit(" ", 1)[-1]
    assert path.endswith("exports/checkpoint-200") and (Path(path) / "model.safetensors").is_file()
    tasks = cli_server.cli("jobs", "tasks", "demo-sft").stdout
    assert "export" in tasks and "completed" in tasks and "100%" in tasks
    metrics = cli_server.home / "demo-metrics.csv"
    assert cli_server.cli("metrics", "export", "demo-sft", "--output", str(metrics)).returncode == 0
    header, *steps = metrics.read_text().splitlines()
    assert '"loss"' in header.split(",") and len(steps) == 200


def test_models_are_registered_listed_and_shown(cli_server, demo_assets):
    registered = cli_server.cli("models", "register", "--name", "my-model", "--path", str(demo_assets["model"]))
    assert registered.returncode == 0, registered.stderr
    assert "registered model my-model" in registered.stdout
    listing = cli_server.cli("models", "list").stdout
    assert "my-model" in listing and "demo-tiny-qwen2" in listing and "qwen2" in listing
    shown = json.loads(cli_server.cli("models", "show", "my-model").stdout)
    assert shown["path"] == str(demo_assets["model"]) and shown["num_parameters"] > 0
    taken = cli_server.cli("models", "register", "--name", "my-model", "--path", str(demo_assets["model"]))
    assert taken.returncode == 1 and "already registered" in taken.stderr


@pytest.mark.slow
def test_create_with_params_then_stop(cli_server):
    home = cli_server.home
    result = cli_server.cli(
        "jobs", "create", "--name", "cli-lora", "--algorithm", "sft",
        "--model", str(home / "models" / "demo-tiny-qwen2"), "--dataset", str(home / "datasets" / "demo" / "sft.jsonl"),
        "-p", "learning_rate=1e-3", "-p", "batch_size=8", "-p", "micro_batch_size=8", "-p", "max_steps=100000",
        "-p", "lora.rank=4", "--health", "actions.pause_on_non_finite=true",
        "--health", "detectors.grad_explosion.ceiling=50", "--start",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "created job cli-lora" in result.stdout
    job = cli_server.wait_for_step("cli-lora", 1)
    assert job["params"]["lora"]["rank"] == 4
    assert job["health_settings"]["actions"]["pause_on_non_finite"] is True
    assert job["health_settings"]["detectors"]["grad_explosion"]["ceiling"] == 50
    stopped = cli_server.cli("jobs", "stop", "cli-lora")
    assert stopped.returncode == 0 and "cancelled" in stopped.stdout
    events = cli_server.cli("jobs", "events", "cli-lora").stdout
    assert "stopped by user" in events


def test_a_piped_listing_keeps_names_and_statuses_whole(cli_server):
    """Piped into grep, eight columns would share 80 characters and cut a name to "a-job…"; CI saw "completed"
    cut that way twice, the second time with COLUMNS=80 inherited from the shell that ran the suite."""
    name = "a-job-whose-name-is-longer-than-a-column-of-eighty"
    home = cli_server.home
    created = cli_server.cli(
        "jobs", "create", "--name", name, "--algorithm", "sft", "--model", str(home / "models" / "demo-tiny-qwen2"),
        "--dataset", str(home / "datasets" / "demo" / "sft.jsonl"),
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    cli_server.env["COLUMNS"] = "80"
    listing = cli_server.cli("jobs", "list").stdout
    cli_server.env.pop("COLUMNS")
    assert name in listing and "created" in listing
    assert max(map(len, listing.splitlines())) <= 200


def test_invalid_input_exits_1_naming_the_field(cli_server):
    result = cli_server.cli(
        "jobs", "create", "--name", "cli-bad", "--algorithm", "sft", "--model", "/nowhere",
        "--dataset", "/nowhere.jsonl", "-p", "learning_rate=-1",
    )  # fmt: skip
    assert result.returncode == 1
    assert "params.learning_rate: Input should be greater than 0" in result.stderr
    assert "model_path: not under the platform's data roots (PLATFORM_DATA_ROOTS)" in result.stderr
    assert "dataset_paths.0: not under the platform's data roots" in result.stderr
    unhealthy = cli_server.cli(
        "jobs", "create", "--name", "cli-bad", "--algorithm", "sft", "--model", "/m", "--dataset", "/d.jsonl",
        "--health", "detectors.slow_step.factor=0",
    )  # fmt: skip
    assert unhealthy.returncode == 1
    assert "health.detectors.slow_step.factor: Input should be greater than 1" in unhealthy.stderr
    illegal = cli_server.cli("jobs", "pause", "demo-sft")
    assert illegal.returncode == 1 and "error 409" in illegal.stderr


def test_unreachable_server_exits_2_with_a_hint(tmp_path):
    server = ServerProcess(home=tmp_path)
    server.env["PLATFORM_URL"] = f"http://127.0.0.1:{free_port()}"
    result = server.cli("jobs", "list")
    assert result.returncode == 2
    assert "cannot reach the platform" in result.stderr and "tplat serve" in result.stderr
