from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.reward_preview_completion_kind import RewardPreviewCompletionKind

T = TypeVar("T", bound="RewardPreviewCompletion")


@_attrs_define
class RewardPreviewCompletion:
    """
    Attributes:
        kind (RewardPreviewCompletionKind): reference: the row's reference as the completion; plain: its answer in a
            plain sentence ('The answer is 7.').
        scores (list[float]): Each reward's score, unweighted, in the order of the rewards.
        text (str): The completion scored (its first 300 characters).
        total (float): The rewards' weighted sum: what the trainer would reward this completion with.
    """

    kind: RewardPreviewCompletionKind
    scores: list[float]
    text: str
    total: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        scores = self.scores

        text = self.text

        total = self.total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "scores": scores,
                "text": text,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = RewardPreviewCompletionKind(d.pop("kind"))

        scores = cast(list[float], d.pop("scores"))

        text = d.pop("text")

        total = d.pop("total")

        reward_preview_completion = cls(
            kind=kind,
            scores=scores,
            text=text,
            total=total,
        )

        reward_preview_completion.additional_properties = d
        return reward_preview_completion

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
