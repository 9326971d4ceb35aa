"""The preview's loss highlighting equals the trainer's own label mask, token for token (SFT and DPO, with and
without a chat template, including rows the trainer truncates or drops), and for conversations also verl's own
SFT dataset's loss mask, under either loss policy. The trainers are built the way engines/trl/recipe.py builds them,
verl's dataset the way its SFT trainer does over the file engines/verl/data.py writes."""

import json
from pathlib import Path

import pytest
from omegaconf import OmegaConf

from tests.datasets.corpus import tool_aware_model
from training_platform.contract.params import Algorithm
from training_platform.contract.run import RunSpec
from training_platform.datasets.preview import loss_preview
from training_platform.datasets.tokens import load_tokenizer
from training_platform.engines.trl import recipe
from training_platform.engines.trl.data import to_trl_dataset
from training_platform.engines.verl.data import convert

MAX_LENGTH = 80  # the demo chat template alone takes about 36 tokens
SFT_ROWS = [
    {"prompt": "What is 3 plus 4?", "response": "The answer is 7."},
    {"prompt": "What is 12 times 2?", "response": "The answer is 24."},
    {
        "messages": [
            {"role": "system", "content": "Answer briefly."},
            {"role": "user", "content": "What is 5 minus 9?"},
            {"role": "assistant", "content": "The answer is -4."},
        ]
    },
    # Long enough to be cut at MAX_LENGTH: the mask must be cut the same way.
    {"prompt": "What is 1 plus 1? " * 4, "response": "The answer is 2. " * 10},
]
DPO_ROWS = [
    {"prompt": "What is 3 plus 4?", "chosen": "The answer is 7.", "rejected": "Maybe."},
    {"prompt": "What is 8 minus 2?", "chosen": "The answer is 6.", "rejected": "The answer is 5, or 7."},
    {"prompt": "What is 2 times 9? " * 2, "chosen": "The answer is 18. " * 5, "rejected": "I do not know."},
    # The prompt alone fills MAX_LENGTH: DPOTrainer drops the row, and the preview says so.
    {"prompt": "What is 1 plus 1? " * 12, "chosen": "The answer is 2.", "rejected": "No."},
]


# Two assistant turns after a system prompt, a tool call and its result: which turns carry the loss is the policy's.
CONVERSATIONS = [
    {
        "messages": [
            {"role": "system", "content": "Answer briefly."},
            {"role": "user", "content": "What is 5 minus 9?"},
            {"role": "assistant", "content": "The answer is -4."},
            {"role": "user", "content": "And 9 minus 5?"},
            {"role": "assistant", "content": "The answer is 4."},
        ]
    },
    {"prompt": "What is 3 plus 4?", "response": "The answer is 7."},
    {
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [{"type": "function", "function": {"name": "weather", "arguments": {"city": "Paris"}}}],
            },
            {"role": "tool", "content": "sunny"},
            {"role": "assistant", "content": "It is sunny."},
        ],
        "tools": [{"type": "function", "function": {"name": "weather", "parameters": {"type": "object"}}}],
    },
]
LONG = 400


def build_trainer(
    tmp_path, model: Path, algorithm: Algorithm, rows: list[dict], chat: bool, max_length=MAX_LENGTH, **extra
):
    params = {"max_length": max_length, "batch_size": 2, "micro_batch_size": 2, "max_steps": 1, **extra}
    if algorithm == Algorithm.SFT:  # one prepared row per sample (packing lays them end to end: test_trl_packing.py)
        params.setdefault("packing", False)
    config = RunSpec(
        job_id="mask",
        model_path=str(model),
        dataset_paths=[],
        params={**params, "algorithm": algorithm},
        output_dir=str(tmp_path / "job"),
    )
    tokenizer = recipe._load_tokenizer(config.model_path)
    if not chat:
        tokenizer.chat_template = None
    train_set = to_trl_dataset(rows, algorithm, tokenizer, config.params.model_dump().get("train_on", "all_assistant"))
    trainer = recipe._build_trainer(config, "cpu", tokenizer, train_set, None)
    return trainer, tokenizer


def preview_tokenizer(demo_assets, chat: bool):
    tokenizer = load_tokenizer(str(demo_assets["model"]))
    if chat:
        return tokenizer
    plain = type(tokenizer).from_pretrained(str(demo_assets["model"]))
    plain.chat_template = None
    return plain


def highlighted(sequence) -> tuple[list[int], list[bool]]:
    return [t.id for t in sequence.tokens], [t.loss for t in sequence.tokens]


@pytest.mark.parametrize("chat", [True, False], ids=["chat-template", "plain-text"])
def test_sft_highlight_is_the_trainers_label_mask(tmp_path, demo_assets, chat):
    rows = SFT_ROWS if chat else [row for row in SFT_ROWS if "messages" not in row]
    trainer, _ = build_trainer(tmp_path, demo_assets["model"], Algorithm.SFT, rows, chat)
    tokenizer = preview_tokenizer(demo_assets, chat)
    prepared = trainer.train_dataset
    sequences = [
        loss_preview(i + 1, row, "sft", tokenizer, "demo", MAX_LENGTH).sequences[0] for i, row in enumerate(rows)
    ]
    assert not any(s.dropped for s in sequences) and len(prepared) == len(rows)
    for example, sequence in zip(prepared, sequences, strict=True):
        ids, loss = highlighted(sequence)
        assert ids == example["input_ids"]
        assert loss == [label != -100 for label in example["labels"]]
        assert any(loss) and not all(loss)
    assert sequences[-1].truncated and sequences[-1].num_tokens == MAX_LENGTH


@pytest.mark.parametrize("chat", [True, False], ids=["chat-template", "plain-text"])
def test_dpo_highlight_is_the_trainers_completion_mask(tmp_path, demo_assets, chat):
    trainer, _ = build_trainer(tmp_path, demo_assets["model"], Algorithm.DPO, DPO_ROWS, chat)
    tokenizer = preview_tokenizer(demo_assets, chat)
    prepared = trainer.train_dataset
    previews = [loss_preview(i + 1, row, "dpo", tokenizer, "demo", MAX_LENGTH) for i, row in enumerate(DPO_ROWS)]
    kept = [p for p in previews if not any(s.dropped for s in p.sequences)]
    assert [p.row for p in previews if p not in kept] == [4]
    assert len(prepared) == len(kept)
    for example, preview in zip(prepared, kept, strict=True):
        batch = trainer.data_collator([example])
        for position, sequence in enumerate(preview.sequences):  # the collator stacks chosen, then rejected
            real = batch["attention_mask"][position].bool()
            ids, loss = highlighted(sequence)
            assert ids == batch["input_ids"][position][real].tolist()
            assert loss == batch["completion_mask"][position][real].bool().tolist()
            assert any(loss) and not all(loss)
    assert [s.name for s in previews[0].sequences] == ["chosen", "rejected"]


def verl_loss_masks(tmp_path, model: Path, rows: list[dict], train_on: str) -> list[tuple[list[int], list[bool]]]:
    """What verl's SFT trainer trains on: the file engines/verl/data.py writes, read by the class
    engines/verl/command.py names."""
    from training_platform.engines.verl import sft_dataset

    source = tmp_path / "rows.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows))
    parquet = convert([str(source)], tmp_path / "train.parquet", "sft")
    dataset_class = sft_dataset.PlatformSFTDataset if train_on == "all_assistant" else sft_dataset.LastTurnSFTDataset
    config = OmegaConf.create({"max_length": LONG, "truncation": "right", "pad_mode": "no_padding"})
    dataset = dataset_class(str(parquet), load_tokenizer(str(model)), config)
    return [(item["input_ids"].tolist(), item["loss_mask"].bool().tolist()) for item in dataset]


@pytest.mark.parametrize("train_on", ["all_assistant", "last_assistant"])
def test_conversations_train_the_same_tokens_in_the_preview_trl_and_verl(tmp_path, demo_assets, train_on):
    model = tool_aware_model(demo_assets["model"], tmp_path / "model")
    trainer, _ = build_trainer(tmp_path, model, Algorithm.SFT, CONVERSATIONS, True, LONG, train_on=train_on)
    tokenizer = load_tokenizer(str(model))
    previews = [
        loss_preview(i + 1, row, "sft", tokenizer, "demo", LONG, train_on).sequences[0]
        for i, row in enumerate(CONVERSATIONS)
    ]
    verl = verl_loss_masks(tmp_path, model, CONVERSATIONS, train_on)
    for example, sequence, (verl_ids, verl_loss) in zip(trainer.train_dataset, previews, verl, strict=True):
        ids, loss = highlighted(sequence)
        assert ids == example["input_ids"] == verl_ids
        assert loss == [label != -100 for label in example["labels"]] == verl_loss
    first, _single, tools = previews
    trained = [span.text for span in first.spans if span.loss]
    if train_on == "all_assistant":
        assert len(trained) == 2 and "-4" in trained[0] and "is 4." in trained[1]
        assert "Paris" in "".join(span.text for span in tools.spans if span.loss)  # the tool call trains too
    else:
        assert len(trained) == 1 and "is 4." in trained[0]
        assert "Paris" not in "".join(span.text for span in tools.spans if span.loss)
