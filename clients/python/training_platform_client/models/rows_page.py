from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.row_out import RowOut


T = TypeVar("T", bound="RowsPage")


@_attrs_define
class RowsPage:
    """
    Attributes:
        offset (int):
        rows (list[RowOut]):
        total (int):
    """

    offset: int
    rows: list[RowOut]
    total: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        offset = self.offset

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)

        total = self.total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "offset": offset,
                "rows": rows,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.row_out import RowOut  # noqa: PLC0415

        d = dict(src_dict)
        offset = d.pop("offset")

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = RowOut.from_dict(rows_item_data)

            rows.append(rows_item)

        total = d.pop("total")

        rows_page = cls(
            offset=offset,
            rows=rows,
            total=total,
        )

        rows_page.additional_properties = d
        return rows_page

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
