from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.reward_preview_completion import RewardPreviewCompletion


T = TypeVar("T", bound="RewardPreviewRow")


@_attrs_define
class RewardPreviewRow:
    """
    Attributes:
        completions (list[RewardPreviewCompletion]):
        prompt (str): The prompt (its first 300 characters; a conversation's last turn).
        reference (None | str): The reference answer the rewards compare with; none in the row.
        row (int): The row's number in the dataset (1-based).
    """

    completions: list[RewardPreviewCompletion]
    prompt: str
    reference: None | str
    row: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        completions = []
        for completions_item_data in self.completions:
            completions_item = completions_item_data.to_dict()
            completions.append(completions_item)

        prompt = self.prompt

        reference: None | str
        reference = self.reference

        row = self.row

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "completions": completions,
                "prompt": prompt,
                "reference": reference,
                "row": row,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.reward_preview_completion import RewardPreviewCompletion  # noqa: PLC0415

        d = dict(src_dict)
        completions = []
        _completions = d.pop("completions")
        for completions_item_data in _completions:
            completions_item = RewardPreviewCompletion.from_dict(completions_item_data)

            completions.append(completions_item)

        prompt = d.pop("prompt")

        def _parse_reference(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reference = _parse_reference(d.pop("reference"))

        row = d.pop("row")

        reward_preview_row = cls(
            completions=completions,
            prompt=prompt,
            reference=reference,
            row=row,
        )

        reward_preview_row.additional_properties = d
        return reward_preview_row

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
