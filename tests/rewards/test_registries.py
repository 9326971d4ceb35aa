"""Extraction and comparison methods are registries keyed by the names a reward's spec uses: the spec's choices come
from them, a name is registered once, and an unknown one says which there are."""

import typing

import pytest

from training_platform.common.registry import Registry
from training_platform.rewards import RewardConfigError, RewardSpec, answers_match, extract_answer
from training_platform.rewards.comparison import COMPARISONS
from training_platform.rewards.extraction import EXTRACTIONS


def test_the_specs_choices_are_the_registered_names():
    fields = RewardSpec.model_fields
    assert typing.get_args(fields["extraction"].annotation) == EXTRACTIONS.names() == ("boxed", "last_number", "json")
    assert typing.get_args(fields["comparison"].annotation) == COMPARISONS.names() == ("exact", "numeric", "fuzzy")


def test_a_name_is_registered_once_and_an_unknown_one_is_named_with_the_known_ones():
    with pytest.raises(ValueError, match="already registered"):
        EXTRACTIONS.register("boxed")(lambda text, key: text)
    assert EXTRACTIONS.names() == ("boxed", "last_number", "json")
    with pytest.raises(RewardConfigError, match=r"unknown extraction method 'xml' \(expected one of: boxed, last_nu"):
        extract_answer("<answer>4</answer>", "xml")
    with pytest.raises(RewardConfigError, match=r"unknown comparison method 'semantic' \(expected one of: exact,"):
        answers_match("4", "4", "semantic")


def test_a_registry_of_its_own_keeps_its_entries():
    scorers: Registry[int] = Registry("scorer")
    scorers.register("one")(1)
    assert scorers["one"] == 1 and scorers.names() == ("one",)
