"""One precision policy for every TRL algorithm: the dtype each trainer holds its policy and reference in."""

import pytest
import torch

from training_platform.contract.run import RunSpec
from training_platform.engines.trl.arguments import Precision, precision_policy

RL = dict(batch_size=2, rollout_n=4, micro_batch_size=8, max_response_length=8, kl_coef=0.05)
ALGORITHMS = [
    ("sft", "sft", dict(batch_size=8, micro_batch_size=8)),
    ("dpo", "dpo", dict(batch_size=8, micro_batch_size=8)),
    ("grpo", "grpo", RL),
    ("gspo", "grpo", RL),
]


def test_the_policy_keeps_weights_trainable_and_uses_bf16_only_where_it_is_asked_for_or_supported():
    assert precision_policy("auto", "cuda", bf16_supported=True) == Precision("bfloat16", "bf16")
    assert precision_policy("auto", "cuda", bf16_supported=False) == Precision("float32", "fp16")
    assert precision_policy("auto", "cpu", bf16_supported=False) == Precision("float32", "no")
    assert precision_policy("auto", "mps", bf16_supported=False) == Precision("float32", "no")
    assert precision_policy("bf16", "cpu", bf16_supported=False) == Precision("bfloat16", "bf16")
    assert precision_policy("fp16", "cuda", bf16_supported=True) == Precision("float32", "fp16")
    assert precision_policy("fp32", "cuda", bf16_supported=True) == Precision("float32", "no")
    assert Precision("float32", "fp16").trainer_flags == {"bf16": False, "fp16": True}


@pytest.mark.parametrize("precision, dtype", [("auto", torch.float32), ("bf16", torch.bfloat16)])
@pytest.mark.parametrize("algorithm, dataset, params", ALGORITHMS, ids=[a[0] for a in ALGORITHMS])
def test_every_algorithm_holds_policy_and_reference_in_the_same_documented_dtype(
    tmp_path, demo_assets, precision, dtype, algorithm, dataset, params
):
    from training_platform.engines.trl.recipe import build_trainer

    spec = RunSpec(
        job_id="job",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets[dataset])],
        params={**params, "algorithm": algorithm, "max_steps": 1, "precision": precision},
        output_dir=str(tmp_path),
        cpu_threads=1,
    )
    trainer = build_trainer(spec, "cpu")
    assert {parameter.dtype for parameter in trainer.model.parameters()} == {dtype}
    if algorithm != "sft":  # DPO always has a reference; GRPO and GSPO because kl_coef > 0
        assert {parameter.dtype for parameter in trainer.ref_model.parameters()} == {dtype}
    assert (trainer.args.bf16, trainer.args.fp16) == (precision == "bf16", False)
