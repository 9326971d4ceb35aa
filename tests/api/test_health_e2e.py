"""Issue 16's end-to-end acceptance, on a real server with real training: a TRL SFT job whose learning rate makes
it diverge is paused by the NaN action with no NaN in its newest complete checkpoint, resuming it with a sane
rate trains on, and a webhook receiver on loopback that fails its first two deliveries gets every alert once."""

import math
from collections import Counter
from pathlib import Path

import pytest
from safetensors.torch import load_file

from tests.alerts.support import Receiver, fails_first
from tests.engines.test_trl_health_actions import DIVERGING  # diverges to a NaN grad_norm at step 5
from tests.support.helpers import wait_until


@pytest.fixture
def receiver():
    receiver = Receiver(fails_first(2))
    yield receiver
    receiver.close()


@pytest.mark.slow
def test_a_diverging_job_pauses_before_its_nan_step_is_saved_resumes_and_alerts_once(server, demo_assets, receiver):
    target = server.api.post(
        "/alerts/targets", json={"name": "e2e-hook", "url": f"{receiver.url}/hook", "severities": ["critical"]}
    )
    assert target.status_code == 201, target.text
    job = server.create_job(
        name="diverging-sft",
        algorithm="sft",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        params=DIVERGING,
        health={"actions": {"pause_on_non_finite": True}},
        start=True,
    )
    paused = server.wait_for_status(job["id"], "paused", "failed", "completed", timeout=300)
    assert paused["status"] == "paused", paused

    assert paused["exit_code"] == 0 and paused["allowed_actions"] == ["resume", "stop", "delete"]
    [finding] = server.api.get(f"/jobs/{job['id']}/findings", params={"kind": "non_finite"}).json()
    nan_step, saved = finding["first_step"], paused["progress"]["last_checkpoint_step"]
    assert finding["actions"] == ["pause"] and paused["health"] == "critical"
    events = server.api.get(f"/jobs/{job['id']}/events").json()
    assert any(e["kind"] == "action" and f"non_finite at step {nan_step}" in e["message"] for e in events), events
    settled = f"paused automatically: grad_norm is nan at step {nan_step}; checkpoint at step {saved}"
    assert settled in [e["message"] for e in events], events

    checkpoints = server.api.get(f"/jobs/{job['id']}/checkpoints").json()
    assert [c["name"] for c in checkpoints if c["complete"]][-1] == f"checkpoint-{saved}" and saved < nan_step
    assert all(c["kind"] == "checkpoint" and c["step"] < nan_step for c in checkpoints)  # nothing after it, no final
    weights = load_file(Path(checkpoints[-1]["path"]) / "model.safetensors")
    assert all(bool(tensor.isfinite().all()) for tensor in weights.values())

    assert server.api.post(f"/jobs/{job['id']}/resume", params={"learning_rate": 2.0}).status_code == 422
    resumed = server.api.post(f"/jobs/{job['id']}/resume", params={"learning_rate": 1e-4})
    assert resumed.status_code == 200 and resumed.json()["status"] == "running", resumed.text
    done = server.wait_for_status(job["id"], "completed", "failed", "paused", timeout=300)
    assert done["status"] == "completed", done
    assert done["params"]["learning_rate"] == 1e-4 and done["progress"]["last_checkpoint_step"] is not None
    events = [e["message"] for e in server.api.get(f"/jobs/{job['id']}/events").json()]
    assert f"resumed by user from checkpoint-{saved} (step {saved}) with learning_rate 0.0001" in events
    loss = server.api.get(f"/monitoring/{job['id']}/metrics", params={"keys": "loss"}).json()["series"][0]
    after = [value for step, value in zip(loss["steps"], loss["values"], strict=True) if step > saved]
    assert after and all(isinstance(value, float) and math.isfinite(value) for value in after)
    assert max(loss["steps"]) == DIVERGING["max_steps"]

    # Every critical finding of the job reached the receiver exactly once, after two refusals each.
    findings = server.api.get(f"/jobs/{job['id']}/findings", params={"severity": "critical"}).json()
    keys = {f"finding:{f['id']}:critical" for f in findings}
    wait_until(lambda: {r.key for r in receiver.accepted()} >= keys, timeout=60, message="every alert delivered")
    accepted = Counter(r.key for r in receiver.accepted())
    assert set(accepted) == keys and set(accepted.values()) == {1}
    tries = Counter(r.key for r in receiver.requests)
    assert all(tries[key] == 3 for key in keys)
    body = next(r.body for r in receiver.accepted() if r.key == f"finding:{finding['id']}:critical")
    assert body["job_name"] == "diverging-sft" and body["kind"] == "non_finite" and body["step"] == nan_step
    deliveries = server.api.get("/alerts/targets/e2e-hook/deliveries").json()
    assert {d["status"] for d in deliveries} == {"delivered"}
