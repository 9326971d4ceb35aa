"""A LoRA fold, in the surgery run's process: the adapter's product lora_B @ lora_A (scaled) added into the base's
weights by peft, and the result saved as a plain model that loads without peft (docs/surgery.md).

Its price is the whole base model in memory once, in the output's dtype: peft merges modules in place in a loaded
model, and mergekit's own LoRA path does the same. The progress reported is therefore the fold as one unit of work.
"""

from collections.abc import Callable
from pathlib import Path

# Any of these files makes the directory a tokenizer AutoTokenizer can load.
TOKENIZER_FILES = ("tokenizer_config.json", "tokenizer.json")


def _no_progress(done: int, total: int) -> None:
    """For callers that show no progress."""


def fold_lora(
    base: Path,
    adapter: Path,
    target: Path,
    dtype: str | None = None,
    progress: Callable[[int, int], None] = _no_progress,
) -> None:
    """Write `base` with `adapter` folded into its weights to `target`, as safetensors, with the base's tokenizer.

    `dtype` is the output's ("float32", "float16", "bfloat16"); None keeps the base's. The checks that the adapter
    fits the base (compatibility.adapter_problem) ran on the server before the run was created.
    """
    from peft import PeftModel
    from transformers import AutoModelForCausalLM, AutoTokenizer

    progress(0, 1)
    model = AutoModelForCausalLM.from_pretrained(base, dtype=dtype or "auto")
    folded = PeftModel.from_pretrained(model, adapter).merge_and_unload()
    folded.save_pretrained(target)  # transformers 5 writes safetensors only
    # A base without a tokenizer (weights alone) folds into weights alone: the tokenizer is the base's to provide.
    if any((base / name).is_file() for name in TOKENIZER_FILES):
        AutoTokenizer.from_pretrained(base).save_pretrained(target)
    progress(1, 1)
