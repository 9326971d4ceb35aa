"""A merge interrupted: the server restarted under it re-attaches and follows it; stopped mid-way, it leaves no
result, no half-written directory and no registered model."""

import json
from pathlib import Path

import pytest
import torch
from safetensors.torch import save_file

from tests.support.helpers import ServerProcess, wait_until

pytestmark = pytest.mark.slow


def write_model(directory: Path, seed: int, layers: int = 24, hidden: int = 512) -> Path:
    """A Qwen2-shaped model of random weights (about 100M parameters, 400 MB): a merge of two takes seconds."""
    directory.mkdir(parents=True)
    config = dict(
        architectures=["Qwen2ForCausalLM"],
        model_type="qwen2",
        hidden_size=hidden,
        intermediate_size=4 * hidden,
        num_hidden_layers=layers,
        num_attention_heads=8,
        num_key_value_heads=2,
        vocab_size=32_000,
        tie_word_embeddings=True,
        torch_dtype="float32",
    )
    (directory / "config.json").write_text(json.dumps(config))
    generator = torch.Generator().manual_seed(seed)
    head = hidden // 8
    shapes = {"model.embed_tokens.weight": (32_000, hidden), "model.norm.weight": (hidden,)}
    for layer in range(layers):
        prefix = f"model.layers.{layer}"
        shapes |= {
            f"{prefix}.self_attn.q_proj.weight": (hidden, hidden),
            f"{prefix}.self_attn.q_proj.bias": (hidden,),
            f"{prefix}.self_attn.k_proj.weight": (2 * head, hidden),
            f"{prefix}.self_attn.k_proj.bias": (2 * head,),
            f"{prefix}.self_attn.v_proj.weight": (2 * head, hidden),
            f"{prefix}.self_attn.v_proj.bias": (2 * head,),
            f"{prefix}.self_attn.o_proj.weight": (hidden, hidden),
            f"{prefix}.mlp.gate_proj.weight": (4 * hidden, hidden),
            f"{prefix}.mlp.up_proj.weight": (4 * hidden, hidden),
            f"{prefix}.mlp.down_proj.weight": (hidden, 4 * hidden),
            f"{prefix}.input_layernorm.weight": (hidden,),
            f"{prefix}.post_attention_layernorm.weight": (hidden,),
        }
    save_file({name: torch.randn(shape, generator=generator) * 0.02 for name, shape in shapes.items()},
              directory / "model.safetensors", metadata={"format": "pt"})  # fmt: skip
    return directory


@pytest.fixture
def server(tmp_path):
    (tmp_path / "home").mkdir()
    process = ServerProcess(home=tmp_path / "home")
    # One torch thread: the merge stays under way long enough to be interrupted, and leaves the other core to the
    # tests beside it.
    process.env["PLATFORM_TRAIN_CPU_THREADS"] = "1"
    process.start()
    yield process
    process.shutdown()


def test_a_merge_survives_a_server_restart_and_stopped_mid_way_leaves_nothing(server, tmp_path):
    models = [write_model(tmp_path / f"model-{seed}", seed) for seed in range(2)]
    body = {
        "name": "big-ties",
        "method": "ties",
        "base_model": str(models[0]),
        "models": [{"model": str(path), "parameters": {"weight": 0.5, "density": 0.5}} for path in models[1:]],
    }
    response = server.api.post("/surgery/merge", json=body)
    assert response.status_code == 201, response.text
    job_id = response.json()["id"]

    def merging() -> dict | None:
        job = server.job(job_id)
        assert job["status"] in ("queued", "running"), (job["status"], job["error"])
        progress = job["progress"] or {}
        return job if progress.get("current_step", 0) > 0 else None

    running = wait_until(merging, timeout=120, message="the merge under way")
    staging = Path(running["output_dir"]) / ".final.partial"
    assert staging.is_dir() and not (Path(running["output_dir"]) / "final").exists()

    server.stop_server_only()
    server.start()
    events = [event["message"] for event in server.api.get(f"/jobs/{job_id}/events").json()]
    assert f"re-attached to local run {running['pid']} after a platform restart" in events
    again = server.job(job_id)
    assert again["status"] == "running" and "pause" not in again["allowed_actions"]
    assert server.api.post(f"/jobs/{job_id}/pause").status_code == 409

    assert server.api.post(f"/jobs/{job_id}/stop").status_code == 200
    stopped = server.wait_for_status(job_id, "cancelled", "completed", "failed", timeout=60)
    assert stopped["status"] == "cancelled"
    root = Path(stopped["output_dir"])
    assert not staging.exists() and not (root / "final").exists()
    assert server.api.get("/models/big-ties").status_code == 404
    assert all(choice["job_id"] != job_id for choice in server.api.get("/models/choices").json())
