"""The dataset kinds are defined once (datafiles/kinds.py) and everything else reads them: the checks, the text the
model reads, what the platform reads of a row, the API's schema and endpoints that the web UI takes them from."""

import typing

from training_platform.contract.params import RL_ALGORITHMS, Algorithm
from training_platform.datafiles.formats import SCHEMAS
from training_platform.datafiles.kinds import DATASET_KINDS, KIND_FIELDS, RL_KINDS, kinds_read_by
from training_platform.datafiles.presets import PLATFORM_READS, PRESETS
from training_platform.datafiles.table import TEXT_FIELDS
from training_platform.datasets.schemas import DatasetKind
from training_platform.datasets.service import DatasetService


def test_the_kinds_are_the_algorithms_and_eval_and_every_table_has_each_of_them():
    assert DATASET_KINDS == tuple(a.value for a in Algorithm) + ("eval",)
    assert set(RL_KINDS) == {a.value for a in RL_ALGORITHMS}
    assert typing.get_args(DatasetKind) == DATASET_KINDS
    for table in (KIND_FIELDS, SCHEMAS, TEXT_FIELDS, PLATFORM_READS):
        assert tuple(table) == DATASET_KINDS
    assert all(set(preset.kinds) <= set(DATASET_KINDS) for preset in PRESETS.values())


def test_what_each_kind_reads_and_maps():
    assert SCHEMAS["sft"].describe() == "prompt + response (or messages)"
    assert TEXT_FIELDS["dpo"] == ("prompt", "chosen", "rejected")
    assert TEXT_FIELDS["eval"] == ("prompt", "reference")
    assert PLATFORM_READS["grpo"] == ("prompt", "data_source", "ability")
    assert {kind: fields.mappable for kind, fields in KIND_FIELDS.items()} == {
        "sft": ("prompt", "response", "messages"),
        "dpo": ("prompt", "chosen", "rejected"),
        "grpo": ("prompt", "data_source", "solution"),
        "gspo": ("prompt", "data_source", "solution"),
        "ppo": ("prompt", "data_source"),
        "eval": ("prompt", "messages", "reference", "tests", "choices", "category"),
    }
    assert [kinds_read_by(a) for a in Algorithm] == [
        ("sft",),
        ("dpo",),
        ("grpo", "gspo"),
        ("gspo", "grpo"),
        ("ppo", "grpo", "gspo"),
    ]
    offered = {info.kind: info.presets for info in DatasetService.kinds()}
    assert offered["sft"][:2] == ["alpaca", "sharegpt"] and offered["ppo"] == ["verl-rl"]
    assert offered["eval"] == ["mmlu", "humaneval"]
