from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.preset_tried import PresetTried
    from ..models.row_out import RowOut


T = TypeVar("T", bound="DetectResult")


@_attrs_define
class DetectResult:
    """
    Attributes:
        detected (bool):
        message (None | str):
        preset (None | str):
        rows (list[RowOut]):
        tried (list[PresetTried]):
        unused_columns (list[str]):
    """

    detected: bool
    message: None | str
    preset: None | str
    rows: list[RowOut]
    tried: list[PresetTried]
    unused_columns: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        detected = self.detected

        message: None | str
        message = self.message

        preset: None | str
        preset = self.preset

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)

        tried = []
        for tried_item_data in self.tried:
            tried_item = tried_item_data.to_dict()
            tried.append(tried_item)

        unused_columns = self.unused_columns

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "detected": detected,
                "message": message,
                "preset": preset,
                "rows": rows,
                "tried": tried,
                "unused_columns": unused_columns,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.preset_tried import PresetTried  # noqa: PLC0415
        from ..models.row_out import RowOut  # noqa: PLC0415

        d = dict(src_dict)
        detected = d.pop("detected")

        def _parse_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message = _parse_message(d.pop("message"))

        def _parse_preset(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        preset = _parse_preset(d.pop("preset"))

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = RowOut.from_dict(rows_item_data)

            rows.append(rows_item)

        tried = []
        _tried = d.pop("tried")
        for tried_item_data in _tried:
            tried_item = PresetTried.from_dict(tried_item_data)

            tried.append(tried_item)

        unused_columns = cast(list[str], d.pop("unused_columns"))

        detect_result = cls(
            detected=detected,
            message=message,
            preset=preset,
            rows=rows,
            tried=tried,
            unused_columns=unused_columns,
        )

        detect_result.additional_properties = d
        return detect_result

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
