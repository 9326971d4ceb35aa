from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.span import Span
    from ..models.token import Token


T = TypeVar("T", bound="Sequence")


@_attrs_define
class Sequence:
    """
    Attributes:
        dropped (bool):
        loss_tokens (int):
        name (str):
        num_tokens (int):
        spans (list[Span]):
        text (str):
        tokens (list[Token]):
        truncated (bool):
    """

    dropped: bool
    loss_tokens: int
    name: str
    num_tokens: int
    spans: list[Span]
    text: str
    tokens: list[Token]
    truncated: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dropped = self.dropped

        loss_tokens = self.loss_tokens

        name = self.name

        num_tokens = self.num_tokens

        spans = []
        for spans_item_data in self.spans:
            spans_item = spans_item_data.to_dict()
            spans.append(spans_item)

        text = self.text

        tokens = []
        for tokens_item_data in self.tokens:
            tokens_item = tokens_item_data.to_dict()
            tokens.append(tokens_item)

        truncated = self.truncated

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dropped": dropped,
                "loss_tokens": loss_tokens,
                "name": name,
                "num_tokens": num_tokens,
                "spans": spans,
                "text": text,
                "tokens": tokens,
                "truncated": truncated,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.span import Span  # noqa: PLC0415
        from ..models.token import Token  # noqa: PLC0415

        d = dict(src_dict)
        dropped = d.pop("dropped")

        loss_tokens = d.pop("loss_tokens")

        name = d.pop("name")

        num_tokens = d.pop("num_tokens")

        spans = []
        _spans = d.pop("spans")
        for spans_item_data in _spans:
            spans_item = Span.from_dict(spans_item_data)

            spans.append(spans_item)

        text = d.pop("text")

        tokens = []
        _tokens = d.pop("tokens")
        for tokens_item_data in _tokens:
            tokens_item = Token.from_dict(tokens_item_data)

            tokens.append(tokens_item)

        truncated = d.pop("truncated")

        sequence = cls(
            dropped=dropped,
            loss_tokens=loss_tokens,
            name=name,
            num_tokens=num_tokens,
            spans=spans,
            text=text,
            tokens=tokens,
            truncated=truncated,
        )

        sequence.additional_properties = d
        return sequence

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
