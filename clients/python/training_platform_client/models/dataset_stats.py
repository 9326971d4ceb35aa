from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.column_stats import ColumnStats
    from ..models.label_stats import LabelStats
    from ..models.length_stats import LengthStats


T = TypeVar("T", bound="DatasetStats")


@_attrs_define
class DatasetStats:
    """
    Attributes:
        columns (list[ColumnStats]):
        labels (list[LabelStats]):
        lengths (list[LengthStats]):
        num_rows (int):
        readable_rows (int):
        tokenizer (str):
    """

    columns: list[ColumnStats]
    labels: list[LabelStats]
    lengths: list[LengthStats]
    num_rows: int
    readable_rows: int
    tokenizer: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        columns = []
        for columns_item_data in self.columns:
            columns_item = columns_item_data.to_dict()
            columns.append(columns_item)

        labels = []
        for labels_item_data in self.labels:
            labels_item = labels_item_data.to_dict()
            labels.append(labels_item)

        lengths = []
        for lengths_item_data in self.lengths:
            lengths_item = lengths_item_data.to_dict()
            lengths.append(lengths_item)

        num_rows = self.num_rows

        readable_rows = self.readable_rows

        tokenizer = self.tokenizer

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "columns": columns,
                "labels": labels,
                "lengths": lengths,
                "num_rows": num_rows,
                "readable_rows": readable_rows,
                "tokenizer": tokenizer,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.column_stats import ColumnStats  # noqa: PLC0415
        from ..models.label_stats import LabelStats  # noqa: PLC0415
        from ..models.length_stats import LengthStats  # noqa: PLC0415

        d = dict(src_dict)
        columns = []
        _columns = d.pop("columns")
        for columns_item_data in _columns:
            columns_item = ColumnStats.from_dict(columns_item_data)

            columns.append(columns_item)

        labels = []
        _labels = d.pop("labels")
        for labels_item_data in _labels:
            labels_item = LabelStats.from_dict(labels_item_data)

            labels.append(labels_item)

        lengths = []
        _lengths = d.pop("lengths")
        for lengths_item_data in _lengths:
            lengths_item = LengthStats.from_dict(lengths_item_data)

            lengths.append(lengths_item)

        num_rows = d.pop("num_rows")

        readable_rows = d.pop("readable_rows")

        tokenizer = d.pop("tokenizer")

        dataset_stats = cls(
            columns=columns,
            labels=labels,
            lengths=lengths,
            num_rows=num_rows,
            readable_rows=readable_rows,
            tokenizer=tokenizer,
        )

        dataset_stats.additional_properties = d
        return dataset_stats

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
