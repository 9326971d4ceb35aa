"""Per-layer gradient norms inside verl's processes (the plugin): what it measures, the keys it logs, and a real
verl SFT run on the CPU that writes them every N steps."""

import json
import math
import os
import subprocess

import pytest
import torch

from training_platform.contract.run import RunSpec
from training_platform.engines.verl.plugin import layer_grad_norms


class Tiny(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed_tokens = torch.nn.Embedding(8, 4)
        self.layers = torch.nn.ModuleList([torch.nn.Linear(4, 4), torch.nn.Linear(4, 4)])
        self.norm = torch.nn.LayerNorm(4)
        self.lm_head = torch.nn.Linear(4, 8)
        self.layers[1].bias.requires_grad_(False)  # frozen: not measured

    def forward(self, ids):
        hidden = self.embed_tokens(ids)
        for layer in self.layers:
            hidden = layer(hidden)
        return self.lm_head(self.norm(hidden))


def test_layer_grad_norms_are_the_groups_norms_and_undo_a_loss_scale():
    torch.manual_seed(0)
    model = Tiny()
    model(torch.tensor([[1, 2, 3]])).square().sum().backward()
    norms = layer_grad_norms.layer_grad_norms(model)
    assert sorted(norms) == ["000", "001", "embed", "head", "norm"]
    expected = torch.cat([model.layers[1].weight.grad.flatten()]).norm().item()
    assert norms["001"] == pytest.approx(expected)
    total = torch.nn.utils.get_total_norm([p.grad for p in model.parameters() if p.requires_grad]).item()
    assert math.sqrt(sum(v * v for v in norms.values())) == pytest.approx(total, rel=1e-5)
    assert layer_grad_norms.layer_grad_norms(model, scale=4.0)["000"] == pytest.approx(norms["000"] / 4)


def test_the_actor_prefix_of_ppo_metrics_is_dropped_from_the_layer_norms_only():
    logged = layer_grad_norms.platform_layer_keys(
        {"actor/grad_norm/layer/000": 1.0, "actor/grad_norm": 2.0, "critic/grad_norm": 3.0, "timing_s/step": 4.0}
    )
    assert logged == {"grad_norm/layer/000": 1.0, "actor/grad_norm": 2.0, "critic/grad_norm": 3.0, "timing_s/step": 4.0}


@pytest.mark.slow
def test_a_verl_sft_run_on_the_cpu_logs_layer_norms_every_n_steps(tmp_path, demo_assets):
    from training_platform.engines.verl.engine import VerlEngine

    params = dict(learning_rate=3e-3, batch_size=16, micro_batch_size=8, max_steps=4, save_interval=4, max_length=64)
    spec = RunSpec(
        job_id="job",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        params={**params, "algorithm": "sft"},
        output_dir=str(tmp_path),
        cpu_threads=1,
        health={"layer_grad_norms_every": 2},
    )
    launch = VerlEngine().launch_spec(spec)
    # What the verl engine's environment must carry from spec.health.layer_grad_norms_every.
    env = {**os.environ, **launch.env, layer_grad_norms.LAYER_GRAD_NORMS_EVERY: "2"}
    done = subprocess.run(launch.argv, cwd=launch.cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-5000:]
    lines = [json.loads(line)["data"] for line in spec.layout.metrics_path.read_text().splitlines()]
    layers = [
        sorted(k.removeprefix("grad_norm/layer/") for k in data if k.startswith("grad_norm/layer/")) for data in lines
    ]
    assert layers == [[], ["000", "001", "embed", "norm"]] * 2  # the demo model's head is tied to its embeddings
    for data in lines[1::2]:
        measured = math.sqrt(sum(v * v for k, v in data.items() if k.startswith("grad_norm/layer/")))
        assert measured == pytest.approx(data["train/grad_norm"], rel=1e-4)  # before clipping, as verl logs it
