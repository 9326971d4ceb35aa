"""Build the demo model, tokenizer and datasets from scratch, with no download.

The task is two-number arithmetic ("What is 3 plus 4?" → "The answer is 7."): small enough that a
100k-parameter model learns its format in a few dozen CPU steps, and checkable by a rule reward.
"""

import json
import random
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

DEMO_MODEL_NAME = "demo-tiny-qwen2"
DEMO_REWARD_MODEL_NAME = "demo-tiny-qwen2-reward"
CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
OPERATIONS = {"plus": lambda a, b: a + b, "minus": lambda a, b: a - b, "times": lambda a, b: a * b}


@dataclass(frozen=True)
class DemoDataset:
    name: str
    kind: str
    path: Path
    description: str


def _problems(seed: int, count: int) -> list[tuple[str, int]]:
    rng = random.Random(seed)
    problems = []
    for _ in range(count):
        a, b = rng.randint(0, 20), rng.randint(0, 20)
        operation = rng.choice(list(OPERATIONS))
        problems.append((f"What is {a} {operation} {b}?", OPERATIONS[operation](a, b)))
    return problems


def _answer(value: int) -> str:
    return f"The answer is {value}."


def build_tokenizer(directory: Path):
    """A byte-level BPE trained on the demo task, saved so that AutoTokenizer reloads it with identical ids.

    transformers loads any folder whose config says qwen2 as Qwen2Tokenizer, which imposes Qwen2's
    normalizer and pre-tokenizer; training with exactly those keeps
    the vocabulary and the ids it produces consistent.
    """
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers
    from transformers import Qwen2Tokenizer
    from transformers.models.qwen2.tokenization_qwen2 import PRETOKENIZE_REGEX

    texts = [f"{q} {_answer(v)}" for q, v in _problems(seed=0, count=2000)]
    texts += ["user assistant system", "0 1 2 3 4 5 6 7 8 9 -"]
    bpe = Tokenizer(models.BPE())
    bpe.normalizer = normalizers.NFC()
    bpe.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(PRETOKENIZE_REGEX), behavior="isolated", invert=False),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator(
        texts,
        trainers.BpeTrainer(
            vocab_size=400,
            special_tokens=SPECIAL_TOKENS,
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
            show_progress=False,
        ),
    )
    vocab = bpe.get_vocab()
    merges = [tuple(pair) for pair in json.loads(bpe.to_str())["model"]["merges"]]
    tokenizer = Qwen2Tokenizer(
        vocab=vocab, merges=merges, eos_token="<|im_end|>", pad_token="<|endoftext|>", unk_token=None
    )
    tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.save_pretrained(directory)
    return tokenizer


def build_model(
    directory: Path,
    tokenizer,
    hidden: int = 64,
    intermediate: int = 192,
    layers: int = 2,
    heads: int = 2,
    kv_heads: int = 1,
) -> int:
    """A 2-layer Qwen2 decoder (head size 32, so vLLM's CPU attention accepts it too), or one of another shape with
    the same tokenizer (the benchmarks'); returns its parameter count."""
    import torch
    from transformers import AutoModelForCausalLM, Qwen2Config

    torch.manual_seed(0)
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=hidden,
        intermediate_size=intermediate,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=kv_heads,
        max_position_embeddings=512,
        tie_word_embeddings=True,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=None,
    )
    model = AutoModelForCausalLM.from_config(config)
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.save_pretrained(directory)
    return sum(p.numel() for p in model.parameters())


def build_reward_model(directory: Path, model_dir: Path) -> None:
    """A reward model for trying PPO: the demo model's body under a fresh one-score head
    (Qwen2ForSequenceClassification, the shape verl's discriminative reward models take, served by vLLM's
    /classify). The head is untrained, so its scores exercise the PPO path; they do not judge answers."""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForSequenceClassification, AutoTokenizer

    torch.manual_seed(0)
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    config = AutoConfig.from_pretrained(model_dir, num_labels=1, architectures=["Qwen2ForSequenceClassification"])
    model = AutoModelForSequenceClassification.from_config(config)
    body = AutoModelForCausalLM.from_pretrained(model_dir).model.state_dict()
    model.model.load_state_dict(body)  # strict: every weight but the new head comes from the demo model
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def build_datasets(directory: Path) -> list[DemoDataset]:
    directory.mkdir(parents=True, exist_ok=True)
    rng = random.Random(1)
    sft = [{"prompt": q, "response": _answer(v)} for q, v in _problems(seed=2, count=256)]
    # Rejected answers alternate between a wrong number and no answer at all, the two ways a reply goes wrong.
    evasive = ["I do not know.", "Maybe.", "Numbers are hard."]
    dpo = [
        {
            "prompt": q,
            "chosen": _answer(v),
            "rejected": _answer(v + rng.choice([-3, -2, -1, 1, 2, 3])) if i % 2 else rng.choice(evasive),
        }
        for i, (q, v) in enumerate(_problems(seed=3, count=128))
    ]
    grpo = [
        {"prompt": q, "data_source": "demo_arithmetic", "solution": str(v)} for q, v in _problems(seed=4, count=128)
    ]
    # Two references each: the sentence the demo SFT teaches, and the bare number (math and exact match read either).
    evaluation = [
        {"prompt": q, "reference": [_answer(v), str(v)], "category": q.split()[3]}
        for q, v in _problems(seed=5, count=32)
    ]
    files = {
        "demo-sft": ("sft", "sft.jsonl", sft, "arithmetic questions with answers (prompt/response)"),
        "demo-dpo": ("dpo", "dpo.jsonl", dpo, "a right (chosen) and a wrong or evasive (rejected) answer per question"),
        "demo-grpo": ("grpo", "grpo.parquet", grpo, "questions with their numeric solution, for rule rewards"),
        "demo-eval": ("eval", "eval.jsonl", evaluation, "held-out questions with references, by operation"),
    }
    result = []
    for name, (kind, filename, rows, description) in files.items():
        path = directory / filename
        if path.exists():
            pass  # deterministic content: an existing file is already right, and a running job may be reading it
        elif filename.endswith(".parquet"):
            pq.write_table(pa.Table.from_pylist(rows), path)
        else:
            _write_jsonl(path, rows)
        result.append(DemoDataset(name=name, kind=kind, path=path, description=description))
    return result
