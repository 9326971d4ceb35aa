from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ModelPresetRead")


@_attrs_define
class ModelPresetRead:
    """
    Attributes:
        attention_bias (bool):
        head_dim (int):
        hidden_size (int):
        intermediate_size (int):
        name (str):
        num_heads (int):
        num_kv_heads (int):
        num_layers (int):
        num_parameters (int):
        tie_embeddings (bool):
        vocab_size (int):
    """

    attention_bias: bool
    head_dim: int
    hidden_size: int
    intermediate_size: int
    name: str
    num_heads: int
    num_kv_heads: int
    num_layers: int
    num_parameters: int
    tie_embeddings: bool
    vocab_size: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attention_bias = self.attention_bias

        head_dim = self.head_dim

        hidden_size = self.hidden_size

        intermediate_size = self.intermediate_size

        name = self.name

        num_heads = self.num_heads

        num_kv_heads = self.num_kv_heads

        num_layers = self.num_layers

        num_parameters = self.num_parameters

        tie_embeddings = self.tie_embeddings

        vocab_size = self.vocab_size

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attention_bias": attention_bias,
                "head_dim": head_dim,
                "hidden_size": hidden_size,
                "intermediate_size": intermediate_size,
                "name": name,
                "num_heads": num_heads,
                "num_kv_heads": num_kv_heads,
                "num_layers": num_layers,
                "num_parameters": num_parameters,
                "tie_embeddings": tie_embeddings,
                "vocab_size": vocab_size,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attention_bias = d.pop("attention_bias")

        head_dim = d.pop("head_dim")

        hidden_size = d.pop("hidden_size")

        intermediate_size = d.pop("intermediate_size")

        name = d.pop("name")

        num_heads = d.pop("num_heads")

        num_kv_heads = d.pop("num_kv_heads")

        num_layers = d.pop("num_layers")

        num_parameters = d.pop("num_parameters")

        tie_embeddings = d.pop("tie_embeddings")

        vocab_size = d.pop("vocab_size")

        model_preset_read = cls(
            attention_bias=attention_bias,
            head_dim=head_dim,
            hidden_size=hidden_size,
            intermediate_size=intermediate_size,
            name=name,
            num_heads=num_heads,
            num_kv_heads=num_kv_heads,
            num_layers=num_layers,
            num_parameters=num_parameters,
            tie_embeddings=tie_embeddings,
            vocab_size=vocab_size,
        )

        model_preset_read.additional_properties = d
        return model_preset_read

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
