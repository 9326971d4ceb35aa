"""Token counts of text columns: with a model's own tokenizer (a local directory), or by whitespace words."""

from functools import lru_cache
from pathlib import Path

import polars as pl

from training_platform.errors import FieldError, InvalidInputError

WHITESPACE = "whitespace words (no tokenizer given)"
_BATCH = 10_000


class TokenCounter:
    """Counts the tokens of each text; `name` says which tokenizer, so every figure is labelled with it."""

    name = WHITESPACE

    def count(self, texts: pl.Series) -> pl.Series:
        return texts.str.count_matches(r"\S+").cast(pl.Int64)


class TokenizerCounter(TokenCounter):
    def __init__(self, path: str, tokenizer):
        self.name = path
        self.tokenizer = tokenizer

    def count(self, texts: pl.Series) -> pl.Series:
        values = texts.to_list()
        present = [i for i, text in enumerate(values) if text is not None]
        counts: list[int | None] = [None] * len(values)
        backend = getattr(self.tokenizer, "backend_tokenizer", None)
        for start in range(0, len(present), _BATCH):
            batch = [values[i] for i in present[start : start + _BATCH]]
            if backend is not None:
                lengths = [len(encoding) for encoding in backend.encode_batch_fast(batch, add_special_tokens=False)]
            else:
                lengths = [len(ids) for ids in self.tokenizer(batch, add_special_tokens=False)["input_ids"]]
            for index, length in zip(present[start : start + _BATCH], lengths, strict=True):
                counts[index] = length
        return pl.Series(texts.name, counts, dtype=pl.Int64)


def load_tokenizer(path: str, field: str = "tokenizer"):
    """A tokenizer from a local model or tokenizer directory (never from a hub)."""
    directory = Path(path).expanduser()
    if not directory.is_dir():
        raise InvalidInputError([FieldError(field, f"{path} is not a directory holding a tokenizer")])
    return _cached_tokenizer(str(directory.resolve()), field)


@lru_cache(maxsize=4)
def _cached_tokenizer(path: str, field: str):
    from transformers import AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
    except (OSError, ValueError) as error:
        raise InvalidInputError([FieldError(field, f"cannot load a tokenizer from {path}: {error}")]) from None
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token  # as the trainer does (engines/trl/recipe.py)
    return tokenizer


def token_counter(tokenizer_path: str | None) -> TokenCounter:
    if not tokenizer_path:
        return TokenCounter()
    return TokenizerCounter(str(Path(tokenizer_path).expanduser().resolve()), load_tokenizer(tokenizer_path))
