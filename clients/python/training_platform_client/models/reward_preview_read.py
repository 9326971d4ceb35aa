from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.reward_preview_row import RewardPreviewRow


T = TypeVar("T", bound="RewardPreviewRead")


@_attrs_define
class RewardPreviewRead:
    """
    Attributes:
        all_zero (bool): No right answer of any row scores above 0: training would learn nothing.
        rewards (list[str]): Each reward's name, as its metrics name it (rewards/<name>/mean).
        rows (list[RewardPreviewRow]):
        warnings (list[str]): In the language the request asked for (Accept-Language).
    """

    all_zero: bool
    rewards: list[str]
    rows: list[RewardPreviewRow]
    warnings: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        all_zero = self.all_zero

        rewards = self.rewards

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)

        warnings = self.warnings

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "all_zero": all_zero,
                "rewards": rewards,
                "rows": rows,
                "warnings": warnings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.reward_preview_row import RewardPreviewRow  # noqa: PLC0415

        d = dict(src_dict)
        all_zero = d.pop("all_zero")

        rewards = cast(list[str], d.pop("rewards"))

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = RewardPreviewRow.from_dict(rows_item_data)

            rows.append(rows_item)

        warnings = cast(list[str], d.pop("warnings"))

        reward_preview_read = cls(
            all_zero=all_zero,
            rewards=rewards,
            rows=rows,
            warnings=warnings,
        )

        reward_preview_read.additional_properties = d
        return reward_preview_read

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
