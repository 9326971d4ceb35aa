"""The verl engine through the API: SFT that trains on the CPU, streams, pauses, resumes, exports its checkpoint and
its metrics (TensorBoard, a real MLflow server) and takes an engine setting; RL refused up front where no rollout
engine exists; hand-written commands validated."""

import json
from pathlib import Path

import pytest
import yaml
from websockets.sync.client import connect

from tests.support.helpers import wait_until
from tests.support.jobs import example_params
from tests.support.mlflow_server import MlflowServer
from tests.support.trackers import assert_same, mlflow_history, platform_points, tensorboard_points
from training_platform.trackers.adapters import mlflow_name, tensorboard_tag

pytestmark = pytest.mark.slow


def verl_sft(demo_assets, name: str, **params) -> dict:
    defaults = example_params("verl-sft")
    return dict(
        name=name,
        algorithm="sft",
        engine="verl",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        params={**defaults, **params},
    )


def until_step(points: dict[str, dict[int, float]], last: int) -> dict[str, dict[int, float]]:
    return {key: {step: value for step, value in values.items() if step <= last} for key, values in points.items()}


@pytest.fixture(scope="module")
def mlflow(tmp_path_factory):
    server = MlflowServer(tmp_path_factory.mktemp("mlflow"))
    server.launch()  # ready tens of seconds later, while verl trains
    yield server
    server.stop()


def test_verl_sft_trains_streams_pauses_resumes_and_exports(server, demo_assets, mlflow):
    """And exports to TensorBoard and MLflow as a TRL job does (tests/trackers), with an engine setting (a verl
    override) in the configuration verl composed."""
    trackers = [{"kind": "tensorboard"}, {"kind": "mlflow", "tracking_uri": mlflow.url, "experiment": "verl-sft"}]
    settings = {"optim.betas": [0.9, 0.95]}
    job = server.create_job(**verl_sft(demo_assets, "verl-sft"), trackers=trackers, engine_settings=settings)
    assert job["engine"] == "verl"
    live = connect(
        server.url.replace("http", "ws") + f"/api/v1/monitoring/{job['id']}/live",
        additional_headers=server.auth_headers,
    )
    assert json.loads(live.recv(timeout=10))["type"] == "status"
    server.api.post(f"/jobs/{job['id']}/start")
    seen = []
    while len(seen) < 5:  # steps arrive over the WebSocket while verl trains
        message = json.loads(live.recv(timeout=180))
        # The training steps (with their loss); the job's system samples (CPU, memory) and other records of a step
        # arrive as metric messages of their own.
        if message["type"] == "metric" and "loss" in message["data"]:
            seen.append(message["data"]["step"])
            assert message["data"]["loss"]["total_loss"] > 0 and "learning_rate" in message["data"]
    live.close()

    assert server.api.post(f"/jobs/{job['id']}/pause").status_code == 202
    paused = server.wait_for_status(job["id"], "paused", "failed", "completed", timeout=180)
    assert paused["status"] == "paused", paused["error"]
    pause_step = paused["progress"]["last_checkpoint_step"]
    assert pause_step >= 5 and paused["progress"]["state"] == "paused"
    names = [c["name"] for c in server.api.get(f"/jobs/{job['id']}/checkpoints").json() if c["complete"]]
    assert f"global_step_{pause_step}" in names

    server.api.post(f"/jobs/{job['id']}/resume")
    done = server.wait_for_status(job["id"], "completed", "failed", timeout=300)
    assert done["status"] == "completed", done["error"]
    status = json.loads((Path(done["output_dir"]) / f"{done['id']}_status.json").read_text())
    assert status["resumed_from_step"] == pause_step and status["current_step"] == 40
    loss = server.api.get(f"/monitoring/{job['id']}/metrics", params={"keys": "loss"}).json()["series"][0]
    assert loss["steps"] == list(range(1, 41))  # continuous across the pause, though verl rewrote its file
    assert loss["values"][-1] < loss["values"][0]

    output = Path(done["output_dir"])
    composed = yaml.safe_load((output / "verl" / "hydra" / ".hydra" / "config.yaml").read_text())
    assert composed["optim"]["betas"] == [0.9, 0.95]  # the engine setting, as verl composed its config

    # Exported as a TRL job's are (tests/trackers): every key and step the platform has, from verl's own stream;
    # a step verl ran again after the pause keeps the values first sent (docs/trackers.md, "Limits").
    mlflow.wait_ready()
    exports = lambda: [e["status"] for e in server.api.get(f"/jobs/{job['id']}/trackers").json()]  # noqa: E731
    wait_until(lambda: exports() == ["closed", "closed"], timeout=120, message="both exports to close")
    expected = platform_points(server, job["id"])
    assert {"loss", "learning_rate", "grad_norm", "train/total_tokens(B)"} <= set(expected)
    (run,) = mlflow.runs("verl-sft", f"{job['id']}-1")
    tensorboard, _ = tensorboard_points(output / "tensorboard")
    # verl's `train/total_tokens(B)` is `train/total_tokens_B_` as a TensorBoard tag, `train/total_tokens_B_` in
    # MLflow too (docs/trackers.md).
    for exported, name in ((tensorboard, tensorboard_tag), (mlflow_history(run), mlflow_name)):
        named = {name(key): points for key, points in expected.items()}
        assert {key: set(points) for key, points in exported.items()} == {k: set(p) for k, p in named.items()}
        assert_same(until_step(exported, pause_step), until_step(named, pause_step), rel=1e-6)

    exported = server.export(job["id"], "global_step_40")
    assert exported["status"] == "completed" and exported["progress"] == 1.0, exported
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = exported["result"]["path"]
    model, tokenizer = AutoModelForCausalLM.from_pretrained(path), AutoTokenizer.from_pretrained(path)
    prompt = tokenizer.apply_chat_template(
        [{"role": "user", "content": "What is 3 plus 4?"}],
        add_generation_prompt=True,
        return_tensors="pt",
        return_dict=True,
    )
    output = model.generate(**prompt, max_new_tokens=8, do_sample=False)
    assert output.shape[1] > prompt["input_ids"].shape[1]
    assert tokenizer.decode(output[0][prompt["input_ids"].shape[1] :], skip_special_tokens=True).startswith("The")


def test_verl_rl_is_refused_before_launch_without_a_rollout_engine(server, demo_assets):
    body = dict(
        name="verl-grpo",
        algorithm="grpo",
        engine="verl",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["grpo"])],
        params={"batch_size": 4, "rollout_n": 4, "micro_batch_size": 4, "max_steps": 2},
    )
    response = server.api.post("/jobs", json=body)
    assert response.status_code == 422
    [error] = response.json()["errors"]
    assert error["field"] == "algorithm" and "none is installed in" in error["message"]
    auto = server.create_job(**{**body, "name": "auto-grpo", "engine": "auto"})
    assert auto["engine"] == "trl"  # routed to the engine that can run it here


def test_a_bad_verl_job_is_a_422_naming_the_override(server, demo_assets):
    response = server.api.post("/jobs", json=verl_sft(demo_assets, "verl-bad", lr_scheduler="linear"))
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "params.lr_scheduler"


def test_hand_written_commands_are_validated_by_api_and_cli(server):
    command = (
        "python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo data.train_batch_size=16 "
        "actor_rollout_ref.actor.ppo_mini_batch_size=32 actor_rollout_ref.rollout.name=vllm "
        f"actor_rollout_ref.model.path={server.home.parent / 'm'} trainer.bogus=1"
    )
    result = server.api.post("/engines/verl/validate", json={"command": command}).json()
    assert not result["valid"] and result["problems"][0]["override"] == "trainer.bogus"
    cli = server.cli("verl", "validate", "--", *command.split()[:-1], "trainer.logger=[console,jsonl]")
    assert cli.returncode == 1 and "trainer.logger" in cli.stderr
    good = server.cli(
        "verl",
        "validate",
        "--",
        "torchrun",
        "-m",
        "verl.trainer.sft_trainer",
        f"model.path={server.home.parent / 'm'}",
        "data.train_batch_size=8",
        "data.micro_batch_size_per_gpu=4",
        "trainer.logger=[console,file]",
    )
    assert good.returncode == 0, good.stderr
