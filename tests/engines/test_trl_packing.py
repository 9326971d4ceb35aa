"""SFT packing and the compact LM head (engines/trl/packing.py, lm_head.py), on the demo model and the CPU.

Packed samples must not see each other: a sample's logits packed equal its logits alone (SDPA and eager), the
trainer's packed batches score every sample's tokens as the padded batches do, and a model whose attention would
mix them trains padded, with the reason in the status file's notes."""

import json
import math

import pytest
import torch

from training_platform.contract.params import Algorithm
from training_platform.contract.run import RunSpec
from training_platform.contract.status import read_status
from training_platform.engines.trl import recipe
from training_platform.engines.trl.data import to_trl_dataset
from training_platform.engines.trl.lm_head import add_compact_lm_head
from training_platform.engines.trl.packing import mixes_samples

ROWS = [
    {"prompt": f"What is {a} plus {b}?", "response": " ".join(["The answer is", str(a + b) + "."] * (1 + a % 4))}
    for a, b in [(1, 2), (3, 4), (5, 9), (7, 1), (2, 8), (6, 6), (4, 3), (9, 9)]
]


def load_demo(demo_assets, implementation: str):
    from transformers import AutoModelForCausalLM

    return AutoModelForCausalLM.from_pretrained(demo_assets["model"], attn_implementation=implementation).eval()


@pytest.mark.parametrize("implementation", ["sdpa", "eager"])
def test_a_packed_samples_logits_are_its_logits_alone(demo_assets, implementation):
    model = load_demo(demo_assets, implementation)
    first, second = torch.arange(3, 12), torch.arange(40, 47)
    positions = torch.cat([torch.arange(len(first)), torch.arange(len(second))])
    with torch.no_grad():
        alone = model(input_ids=second[None], use_cache=False).logits[0]
        packed = model(input_ids=torch.cat([first, second])[None], position_ids=positions[None], use_cache=False)
    assert torch.allclose(packed.logits[0, len(first) :], alone, atol=1e-5)
    assert mixes_samples(model, "cpu") is None


def build(tmp_path, demo_assets, packing: bool, **params):
    spec = RunSpec(
        job_id=f"packing-{packing}",
        model_path=str(demo_assets["model"]),
        dataset_paths=[],
        params={
            "algorithm": "sft",
            "batch_size": 4,
            "micro_batch_size": 4,
            "max_steps": 1,
            "max_length": 64,
            "packing": packing,
            **params,
        },  # fmt: skip
        output_dir=str(tmp_path / f"packing-{packing}"),
    )
    tokenizer = recipe._load_tokenizer(spec.model_path)
    return recipe._build_trainer(spec, "cpu", tokenizer, to_trl_dataset(ROWS, Algorithm.SFT, tokenizer), None)


def scored(trainer) -> tuple[float, int, int]:
    """Summed log-probability of every trained token of the training set, their count, and the positions fed."""
    total, tokens, positions = 0.0, 0, 0
    trainer.model.eval()
    with torch.no_grad():
        for batch in trainer.get_train_dataloader():
            outputs = trainer.model(**batch, fused_lm_head=True)
            total += outputs.log_probs.sum().item()
            tokens += int(outputs.label_mask.sum())
            positions += batch["input_ids"].numel()
    return total, tokens, positions


@pytest.mark.parametrize("micro_batch_size", [4, 1])
def test_packed_batches_score_every_sample_as_padded_batches_do(tmp_path, demo_assets, micro_batch_size):
    padded = build(tmp_path, demo_assets, False, micro_batch_size=micro_batch_size)
    packed = build(tmp_path, demo_assets, True, micro_batch_size=micro_batch_size)
    report = packed.packing_report
    assert report.samples == 8 and report.tokens_per_pack == round(micro_batch_size * report.mean_sample_tokens)
    pack_lengths = [sum(lengths) for lengths in packed.train_dataset["seq_lengths"]]
    sample_lengths = [length for lengths in packed.train_dataset["seq_lengths"] for length in lengths]
    assert sorted(sample_lengths) == sorted(len(ids) for ids in padded.train_dataset["input_ids"])
    # Packs of about micro_batch_size samples' tokens: a sample longer than that is a pack of its own.
    assert all(pack <= report.tokens_per_pack or len(lengths) == 1
               for pack, lengths in zip(pack_lengths, packed.train_dataset["seq_lengths"], strict=True))  # fmt: skip
    assert report.packs <= 8 // micro_batch_size + 1  # about as many micro-batches as padded
    assert packed.args.per_device_train_batch_size == 1 and packed.args.padding_free
    padded_total, padded_tokens, padded_positions = scored(padded)
    packed_total, packed_tokens, packed_positions = scored(packed)
    assert packed_tokens == padded_tokens
    assert math.isclose(packed_total, padded_total, rel_tol=1e-5)
    # The padding is gone (micro-batches of one sample had none).
    assert packed_positions < padded_positions if micro_batch_size > 1 else packed_positions == padded_positions


def test_compact_head_gives_trls_outputs_and_gradients(demo_assets):
    from trl.trainer.utils import add_fused_lm_head

    models = [load_demo(demo_assets, "sdpa").train() for _ in range(2)]
    for model in models:
        add_fused_lm_head(model, outputs=("log_probs", "entropy", "is_top1"))
    add_compact_lm_head(models[1])
    ids = torch.randint(0, models[0].config.vocab_size, (2, 12), generator=torch.Generator().manual_seed(0))
    labels = ids.clone()
    labels[0, :5] = -100  # a prompt
    labels[1, 9:] = -100  # padding
    outputs = [model(input_ids=ids, labels=labels, fused_lm_head=True) for model in models]
    for output in outputs:
        output.loss.backward()
    trl, compact = outputs
    assert torch.allclose(trl.loss, compact.loss, atol=1e-5)
    for field in ("log_probs", "entropy"):
        assert torch.allclose(getattr(trl, field), getattr(compact, field), atol=1e-4), field
    assert torch.equal(trl.is_top1, compact.is_top1) and torch.equal(trl.label_mask, compact.label_mask)
    for (name, a), b in zip(models[0].named_parameters(), models[1].parameters(), strict=True):
        assert torch.allclose(a.grad, b.grad, atol=1e-5), name


@pytest.fixture(scope="module")
def opt_model(tmp_path_factory, demo_assets):
    """A model whose attention ignores position ids (OPT takes its positions from the attention mask)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer, OPTConfig

    directory = tmp_path_factory.mktemp("opt")
    tokenizer = AutoTokenizer.from_pretrained(demo_assets["model"])
    config = OPTConfig(
        vocab_size=len(tokenizer),
        hidden_size=64,
        word_embed_proj_dim=64,
        ffn_dim=128,
        num_hidden_layers=1,
        num_attention_heads=2,
        max_position_embeddings=256,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=None,
    )
    torch.manual_seed(0)
    AutoModelForCausalLM.from_config(config).save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def test_packing_falls_back_to_padding_where_attention_mixes_samples(tmp_path, demo_assets, opt_model):
    from training_platform.engines.trl.recipe import main

    dataset = tmp_path / "rows.jsonl"
    dataset.write_text("\n".join(json.dumps(row) for row in ROWS))
    spec = RunSpec(
        job_id="opt",
        model_path=str(opt_model),
        dataset_paths=[str(dataset)],
        params={
            "algorithm": "sft",
            "batch_size": 4,
            "micro_batch_size": 4,
            "max_steps": 2,
            "max_length": 64,
            "learning_rate": 1e-3,
            "packing": True,
        },  # fmt: skip
        output_dir=str(tmp_path / "job"),
        cpu_threads=1,
    )
    spec.save(tmp_path / "run_config.json")
    assert main(tmp_path / "run_config.json") == 0
    notes = {note["code"]: note["params"] for note in read_status(spec.layout.status_path).notes}
    assert "trl.packed" not in notes
    reason = notes["trl.packing_fallback"]["reason"]
    assert "OPTForCausalLM with sdpa attention lets packed samples attend to each other" in reason
    assert notes["trl.flash_attention_absent"]["reason"]["code"] == "trl.reason.no_cuda"  # loaded with SDPA, said
    resolved = json.loads(spec.layout.resolved_config_path.read_text())
    assert (resolved["packing"], resolved["padding_free"], resolved["per_device_train_batch_size"]) == (False, False, 4)
    lines = [json.loads(line) for line in spec.layout.metrics_path.read_text().splitlines()]
    assert all(line["custom"]["padding_ratio"] > 0 for line in lines)
