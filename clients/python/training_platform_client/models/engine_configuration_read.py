from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.engine_configuration_read_configuration_type_0 import EngineConfigurationReadConfigurationType0


T = TypeVar("T", bound="EngineConfigurationRead")


@_attrs_define
class EngineConfigurationRead:
    """One engine's own configuration of the recommended job (what its job preview shows), or why it has none.

    Attributes:
        engine (str):
        recommended (bool):
        configuration (EngineConfigurationReadConfigurationType0 | None | Unset): verl: verl_overrides; TRL:
            trl_arguments, lora_arguments and, on several GPUs, accelerate_config.
        not_shown (None | str | Unset): Why the engine cannot run these settings.
    """

    engine: str
    recommended: bool
    configuration: EngineConfigurationReadConfigurationType0 | None | Unset = UNSET
    not_shown: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.engine_configuration_read_configuration_type_0 import (
            EngineConfigurationReadConfigurationType0,  # noqa: PLC0415
        )

        engine = self.engine

        recommended = self.recommended

        configuration: dict[str, Any] | None | Unset
        if isinstance(self.configuration, Unset):
            configuration = UNSET
        elif isinstance(self.configuration, EngineConfigurationReadConfigurationType0):
            configuration = self.configuration.to_dict()
        else:
            configuration = self.configuration

        not_shown: None | str | Unset
        if isinstance(self.not_shown, Unset):
            not_shown = UNSET
        else:
            not_shown = self.not_shown

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "engine": engine,
                "recommended": recommended,
            }
        )
        if configuration is not UNSET:
            field_dict["configuration"] = configuration
        if not_shown is not UNSET:
            field_dict["not_shown"] = not_shown

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.engine_configuration_read_configuration_type_0 import (
            EngineConfigurationReadConfigurationType0,  # noqa: PLC0415
        )

        d = dict(src_dict)
        engine = d.pop("engine")

        recommended = d.pop("recommended")

        def _parse_configuration(data: object) -> EngineConfigurationReadConfigurationType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                configuration_type_0 = EngineConfigurationReadConfigurationType0.from_dict(data)

                return configuration_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EngineConfigurationReadConfigurationType0 | None | Unset, data)

        configuration = _parse_configuration(d.pop("configuration", UNSET))

        def _parse_not_shown(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        not_shown = _parse_not_shown(d.pop("not_shown", UNSET))

        engine_configuration_read = cls(
            engine=engine,
            recommended=recommended,
            configuration=configuration,
            not_shown=not_shown,
        )

        engine_configuration_read.additional_properties = d
        return engine_configuration_read

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
