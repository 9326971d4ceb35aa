"""What the platform and a trainer share for the health actions: learning-rate requests, the keys a non-finite
pause watches, and the rows of the gradient heatmap."""

import json
import math

import pytest

from training_platform.contract import control
from training_platform.contract.layout import JobLayout
from training_platform.contract.metrics import MetricsWriter, layer_group, non_finite_watched
from training_platform.engines.trl.keys import TRL_KEYS


def test_lr_requests_are_files_read_once_each_oldest_first(tmp_path):
    layout = JobLayout("job", tmp_path)
    reader = control.LrScaleReader(layout.lr_requests_dir)
    assert reader.pending() == []  # no directory yet

    control.request_lr_scale(layout, 0.5, request_id=7)  # a finding's id
    control.request_lr_scale(layout, 0.25, request_id="manual-1")
    pending = reader.pending()
    assert [(r.request_id, r.factor) for r in pending] == [("7", 0.5), ("manual-1", 0.25)]
    reader.mark_applied(pending)
    assert reader.pending() == []

    control.request_lr_scale(layout, 0.1, request_id=7)  # an id already applied is not applied again
    assert reader.pending() == []
    assert control.LrScaleReader(layout.lr_requests_dir, applied={"7"}).pending()[0].request_id == "manual-1"


def test_superseded_requests_are_taken_as_done(tmp_path):
    layout = JobLayout("job", tmp_path)
    control.request_lr_scale(layout, 0.5, request_id="a")
    reader = control.LrScaleReader(layout.lr_requests_dir)
    assert reader.supersede_all() == ["a"]
    assert reader.pending() == []


@pytest.mark.parametrize("factor", [0, -0.5, math.nan, math.inf, 11.0, True, "0.5"])
def test_a_factor_out_of_bounds_is_refused(tmp_path, factor):
    with pytest.raises(ValueError, match="lr scale factor"):
        control.request_lr_scale(JobLayout("job", tmp_path), factor, request_id="x")


@pytest.mark.parametrize("request_id", ["", ".hidden", "../escape", "a/b", "x" * 65])
def test_a_request_id_must_name_a_file_in_the_directory(tmp_path, request_id):
    with pytest.raises(ValueError, match="request id"):
        control.request_lr_scale(JobLayout("job", tmp_path), 0.5, request_id=request_id)


def test_a_file_that_is_not_a_request_is_ignored(tmp_path):
    layout = JobLayout("job", tmp_path)
    layout.lr_requests_dir.mkdir()
    (layout.lr_requests_dir / "bad.json").write_text("{not json")
    (layout.lr_requests_dir / "huge.json").write_text(json.dumps({"factor": 1e9}))
    (layout.lr_requests_dir / ".bad.json.123.tmp").write_text("{}")
    control.request_lr_scale(layout, 0.5, request_id="good")
    assert [r.request_id for r in control.LrScaleReader(layout.lr_requests_dir).pending()] == ["good"]


def test_non_finite_watched_names_losses_gradient_norms_and_rewards():
    logs = {
        "loss": math.nan,
        "grad_norm": math.inf,
        "rewards/accuracy/mean": -math.inf,
        "entropy": math.nan,  # not a sign of a broken run by itself
        "learning_rate": 1e-5,
        "eval_loss": 2.0,
        "note": "text",
    }
    assert set(non_finite_watched(logs)) == {"loss", "grad_norm", "rewards/accuracy/mean"}


@pytest.mark.parametrize(
    ("name", "row"),
    [
        ("model.embed_tokens.weight", "embed"),
        ("model.layers.0.self_attn.q_proj.weight", "000"),
        ("model.layers.27.post_attention_layernorm.weight", "027"),
        ("model.norm.weight", "norm"),
        ("lm_head.weight", "head"),
        ("base_model.model.model.layers.3.mlp.up_proj.lora_A.default.weight", "003"),
        ("_fsdp_wrapped_module.model.layers.1._fsdp_wrapped_module.mlp.down_proj.weight", "001"),
        ("transformer.h.11.attn.c_attn.weight", "011"),
        ("transformer.wte.weight", "embed"),
        ("transformer.ln_f.bias", "norm"),
        ("score.weight", "head"),
        ("something.else", "other"),
    ],
)
def test_layer_groups_are_the_heatmap_rows(name, row):
    assert layer_group(name) == row


def test_layer_norm_keys_and_lr_scale_pass_through_the_writer_unmapped(tmp_path):
    writer = MetricsWriter(tmp_path / "m.jsonl", TRL_KEYS)
    writer.write(3, {"loss": 1.0, "grad_norm/layer/000": 0.5, "grad_norm/layer/embed": math.nan, "lr_scale": 0.5})
    writer.close()
    line = json.loads((tmp_path / "m.jsonl").read_text())
    assert "gradient" not in line  # the total grad_norm alone is the canonical gradient norm
    assert line["custom"]["grad_norm/layer/000"] == 0.5 and math.isnan(line["custom"]["grad_norm/layer/embed"])
    assert line["custom"]["lr_scale"] == 0.5
