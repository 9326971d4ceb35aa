from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.system_info_packages import SystemInfoPackages
    from ..models.system_info_paths import SystemInfoPaths


T = TypeVar("T", bound="SystemInfo")


@_attrs_define
class SystemInfo:
    """
    Attributes:
        database (str):
        engines (list[str]):
        gpus (list[int]): The GPUs (CUDA indices) local jobs are given; none: jobs run on the CPU.
        home (str):
        packages (SystemInfoPackages):
        paths (SystemInfoPaths):
        run_modes (list[str]):
        version (str):
    """

    database: str
    engines: list[str]
    gpus: list[int]
    home: str
    packages: SystemInfoPackages
    paths: SystemInfoPaths
    run_modes: list[str]
    version: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        database = self.database

        engines = self.engines

        gpus = self.gpus

        home = self.home

        packages = self.packages.to_dict()

        paths = self.paths.to_dict()

        run_modes = self.run_modes

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "database": database,
                "engines": engines,
                "gpus": gpus,
                "home": home,
                "packages": packages,
                "paths": paths,
                "run_modes": run_modes,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.system_info_packages import SystemInfoPackages  # noqa: PLC0415
        from ..models.system_info_paths import SystemInfoPaths  # noqa: PLC0415

        d = dict(src_dict)
        database = d.pop("database")

        engines = cast(list[str], d.pop("engines"))

        gpus = cast(list[int], d.pop("gpus"))

        home = d.pop("home")

        packages = SystemInfoPackages.from_dict(d.pop("packages"))

        paths = SystemInfoPaths.from_dict(d.pop("paths"))

        run_modes = cast(list[str], d.pop("run_modes"))

        version = d.pop("version")

        system_info = cls(
            database=database,
            engines=engines,
            gpus=gpus,
            home=home,
            packages=packages,
            paths=paths,
            run_modes=run_modes,
            version=version,
        )

        system_info.additional_properties = d
        return system_info

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
