from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.loss_preview_train_on import LossPreviewTrainOn
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sequence import Sequence


T = TypeVar("T", bound="LossPreview")


@_attrs_define
class LossPreview:
    """
    Attributes:
        chat_template (bool):
        kind (str):
        max_length (int):
        row (int):
        sequences (list[Sequence]):
        tokenizer (str):
        train_on (LossPreviewTrainOn):
        warnings (list[str] | Unset): The row's tools and tool calls the model's chat template does not render.
    """

    chat_template: bool
    kind: str
    max_length: int
    row: int
    sequences: list[Sequence]
    tokenizer: str
    train_on: LossPreviewTrainOn
    warnings: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chat_template = self.chat_template

        kind = self.kind

        max_length = self.max_length

        row = self.row

        sequences = []
        for sequences_item_data in self.sequences:
            sequences_item = sequences_item_data.to_dict()
            sequences.append(sequences_item)

        tokenizer = self.tokenizer

        train_on = self.train_on.value

        warnings: list[str] | Unset = UNSET
        if not isinstance(self.warnings, Unset):
            warnings = self.warnings

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chat_template": chat_template,
                "kind": kind,
                "max_length": max_length,
                "row": row,
                "sequences": sequences,
                "tokenizer": tokenizer,
                "train_on": train_on,
            }
        )
        if warnings is not UNSET:
            field_dict["warnings"] = warnings

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sequence import Sequence  # noqa: PLC0415

        d = dict(src_dict)
        chat_template = d.pop("chat_template")

        kind = d.pop("kind")

        max_length = d.pop("max_length")

        row = d.pop("row")

        sequences = []
        _sequences = d.pop("sequences")
        for sequences_item_data in _sequences:
            sequences_item = Sequence.from_dict(sequences_item_data)

            sequences.append(sequences_item)

        tokenizer = d.pop("tokenizer")

        train_on = LossPreviewTrainOn(d.pop("train_on"))

        warnings = cast(list[str], d.pop("warnings", UNSET))

        loss_preview = cls(
            chat_template=chat_template,
            kind=kind,
            max_length=max_length,
            row=row,
            sequences=sequences,
            tokenizer=tokenizer,
            train_on=train_on,
            warnings=warnings,
        )

        loss_preview.additional_properties = d
        return loss_preview

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
