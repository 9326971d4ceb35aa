"""Attacks on registration that drops nothing without a word: refused shapes, mappings, detection."""

from tests.support.hostile import Case

CASES: list[Case] = []
