"""Attacks on untrusted files decoded under hard limits: decompression and dictionary bombs, lying metadata,
tokenizers."""

from tests.support.hostile import Case

CASES: list[Case] = []
