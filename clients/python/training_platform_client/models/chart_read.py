from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.chart_band import ChartBand


T = TypeVar("T", bound="ChartRead")


@_attrs_define
class ChartRead:
    """
    Attributes:
        id (str): What it shows (loss, margins, completion_length, ...).
        keys (list[str]): Metric keys, one line each, on one axis; `*` stands for one part of a `/`-separated key
            (rewards/*/mean: one line per reward function).
        band (ChartBand | None | Unset): `key` ± `spread` drawn as dashed bounds.
    """

    id: str
    keys: list[str]
    band: ChartBand | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.chart_band import ChartBand  # noqa: PLC0415

        id = self.id

        keys = self.keys

        band: dict[str, Any] | None | Unset
        if isinstance(self.band, Unset):
            band = UNSET
        elif isinstance(self.band, ChartBand):
            band = self.band.to_dict()
        else:
            band = self.band

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "keys": keys,
            }
        )
        if band is not UNSET:
            field_dict["band"] = band

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.chart_band import ChartBand  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        keys = cast(list[str], d.pop("keys"))

        def _parse_band(data: object) -> ChartBand | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                band_type_0 = ChartBand.from_dict(data)

                return band_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ChartBand | None | Unset, data)

        band = _parse_band(d.pop("band", UNSET))

        chart_read = cls(
            id=id,
            keys=keys,
            band=band,
        )

        chart_read.additional_properties = d
        return chart_read

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
