from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.alert_target_update_severities_type_0_item import AlertTargetUpdateSeveritiesType0Item
from ..types import UNSET, Unset

T = TypeVar("T", bound="AlertTargetUpdate")


@_attrs_define
class AlertTargetUpdate:
    """
    Attributes:
        enabled (bool | None | Unset):
        kinds (list[str] | None | Unset):
        severities (list[AlertTargetUpdateSeveritiesType0Item] | None | Unset):
    """

    enabled: bool | None | Unset = UNSET
    kinds: list[str] | None | Unset = UNSET
    severities: list[AlertTargetUpdateSeveritiesType0Item] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        enabled: bool | None | Unset
        if isinstance(self.enabled, Unset):
            enabled = UNSET
        else:
            enabled = self.enabled

        kinds: list[str] | None | Unset
        if isinstance(self.kinds, Unset):
            kinds = UNSET
        elif isinstance(self.kinds, list):
            kinds = self.kinds

        else:
            kinds = self.kinds

        severities: list[str] | None | Unset
        if isinstance(self.severities, Unset):
            severities = UNSET
        elif isinstance(self.severities, list):
            severities = []
            for severities_type_0_item_data in self.severities:
                severities_type_0_item = severities_type_0_item_data.value
                severities.append(severities_type_0_item)

        else:
            severities = self.severities

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if kinds is not UNSET:
            field_dict["kinds"] = kinds
        if severities is not UNSET:
            field_dict["severities"] = severities

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_enabled(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        enabled = _parse_enabled(d.pop("enabled", UNSET))

        def _parse_kinds(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                kinds_type_0 = cast(list[str], data)

                return kinds_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        kinds = _parse_kinds(d.pop("kinds", UNSET))

        def _parse_severities(data: object) -> list[AlertTargetUpdateSeveritiesType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                severities_type_0 = []
                _severities_type_0 = data
                for severities_type_0_item_data in _severities_type_0:
                    severities_type_0_item = AlertTargetUpdateSeveritiesType0Item(severities_type_0_item_data)

                    severities_type_0.append(severities_type_0_item)

                return severities_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[AlertTargetUpdateSeveritiesType0Item] | None | Unset, data)

        severities = _parse_severities(d.pop("severities", UNSET))

        alert_target_update = cls(
            enabled=enabled,
            kinds=kinds,
            severities=severities,
        )

        return alert_target_update
