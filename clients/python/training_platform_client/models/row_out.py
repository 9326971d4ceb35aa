from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.row_out_data_type_0 import RowOutDataType0


T = TypeVar("T", bound="RowOut")


@_attrs_define
class RowOut:
    """
    Attributes:
        data (None | RowOutDataType0):
        row (int):
        problem (None | str | Unset):
    """

    data: None | RowOutDataType0
    row: int
    problem: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.row_out_data_type_0 import RowOutDataType0  # noqa: PLC0415

        data: dict[str, Any] | None
        if isinstance(self.data, RowOutDataType0):
            data = self.data.to_dict()
        else:
            data = self.data

        row = self.row

        problem: None | str | Unset
        if isinstance(self.problem, Unset):
            problem = UNSET
        else:
            problem = self.problem

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "row": row,
            }
        )
        if problem is not UNSET:
            field_dict["problem"] = problem

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.row_out_data_type_0 import RowOutDataType0  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_data(data: object) -> None | RowOutDataType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_0 = RowOutDataType0.from_dict(data)

                return data_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RowOutDataType0, data)

        data = _parse_data(d.pop("data"))

        row = d.pop("row")

        def _parse_problem(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        problem = _parse_problem(d.pop("problem", UNSET))

        row_out = cls(
            data=data,
            row=row,
            problem=problem,
        )

        row_out.additional_properties = d
        return row_out

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
