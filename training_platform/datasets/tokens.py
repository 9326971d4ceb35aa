"""Token counts of text columns: with a model's own tokenizer (a local directory), or estimated from characters.

The estimate counts a CJK character (Han, kana, Hangul) as one token and other text as one token per four
characters, the ratios BPE tokenizers of multilingual models show (a Chinese character is one token or close to it;
English text about four characters a token). Counting whitespace-separated words instead made every Chinese
sentence one "word" and flagged Chinese rows as length outliers among any others.
"""

from functools import lru_cache
from pathlib import Path

import polars as pl
from tokenizers import Tokenizer

from training_platform.errors import FieldError, InvalidInputError

ESTIMATE = "estimated tokens: a CJK character 1, other text 4 characters each (no tokenizer given)"
_CJK = r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]"
_CHARACTERS_PER_TOKEN = 4
_BATCH = 10_000


class TokenCounter:
    """Counts the tokens of each text; `name` says which tokenizer, so every figure is labelled with it."""

    name = ESTIMATE

    def count(self, texts: pl.Series) -> pl.Series:
        cjk = texts.str.count_matches(_CJK).cast(pl.Int64)
        other = texts.str.len_chars().cast(pl.Int64) - cjk
        return cjk + (other + _CHARACTERS_PER_TOKEN - 1) // _CHARACTERS_PER_TOKEN


class TokenizerCounter(TokenCounter):
    def __init__(self, path: str, tokenizer):
        self.name = path
        self.tokenizer = tokenizer

    def count(self, texts: pl.Series) -> pl.Series:
        values = texts.to_list()
        present = [i for i, text in enumerate(values) if text is not None]
        counts: list[int | None] = [None] * len(values)
        tokenizer = self.tokenizer
        backend = tokenizer if isinstance(tokenizer, Tokenizer) else getattr(tokenizer, "backend_tokenizer", None)
        for start in range(0, len(present), _BATCH):
            batch = [values[i] for i in present[start : start + _BATCH]]
            try:
                if backend is not None:
                    encodings = backend.encode_batch_fast(batch, add_special_tokens=False)
                    lengths = [len(encoding) for encoding in encodings]
                else:
                    lengths = [len(ids) for ids in self.tokenizer(batch, add_special_tokens=False)["input_ids"]]
            except BaseException as error:
                # The library's Rust code panics on what a tokenizer.json makes it do (a pre-tokenizer regex past
                # its engine's retry limit): a BaseException, the tokenizer's fault, not the platform's.
                if type(error).__name__ != "PanicException":
                    raise
                message = f"the tokenizer {self.name} fails on the dataset's text: {error}"
                raise InvalidInputError([FieldError("tokenizer", message)]) from None
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
    """Counting needs only the tokenizer's tokenizer.json, read by the tokenizers library alone: transformers, which
    a folder without one needs, imports torch (seconds, and most of a decoding worker's memory)."""
    if not tokenizer_path:
        return TokenCounter()
    directory = Path(tokenizer_path).expanduser().resolve()
    if (directory / "tokenizer.json").is_file():
        try:
            tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
        except Exception as error:  # the library's own exception type, for any malformed file
            message = f"cannot load a tokenizer from {directory}: {error}"
            raise InvalidInputError([FieldError("tokenizer", message)]) from None
        return TokenizerCounter(str(directory), tokenizer)
    return TokenizerCounter(str(directory), load_tokenizer(tokenizer_path))
