from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.algorithm import Algorithm

if TYPE_CHECKING:
    from ..models.unavailable_here import UnavailableHere


T = TypeVar("T", bound="EngineRead")


@_attrs_define
class EngineRead:
    """
    Attributes:
        algorithms (list[Algorithm]):
        cpu_offload (bool):
        devices (list[str]):
        max_devices (int | None):
        name (str):
        runnable_here (list[Algorithm]):
        unavailable_here (list[UnavailableHere]): Why each of its algorithms that this machine cannot run cannot run
            here.
        zero_stages (list[int]):
    """

    algorithms: list[Algorithm]
    cpu_offload: bool
    devices: list[str]
    max_devices: int | None
    name: str
    runnable_here: list[Algorithm]
    unavailable_here: list[UnavailableHere]
    zero_stages: list[int]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        algorithms = []
        for algorithms_item_data in self.algorithms:
            algorithms_item = algorithms_item_data.value
            algorithms.append(algorithms_item)

        cpu_offload = self.cpu_offload

        devices = self.devices

        max_devices: int | None
        max_devices = self.max_devices

        name = self.name

        runnable_here = []
        for runnable_here_item_data in self.runnable_here:
            runnable_here_item = runnable_here_item_data.value
            runnable_here.append(runnable_here_item)

        unavailable_here = []
        for unavailable_here_item_data in self.unavailable_here:
            unavailable_here_item = unavailable_here_item_data.to_dict()
            unavailable_here.append(unavailable_here_item)

        zero_stages = self.zero_stages

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "algorithms": algorithms,
                "cpu_offload": cpu_offload,
                "devices": devices,
                "max_devices": max_devices,
                "name": name,
                "runnable_here": runnable_here,
                "unavailable_here": unavailable_here,
                "zero_stages": zero_stages,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.unavailable_here import UnavailableHere  # noqa: PLC0415

        d = dict(src_dict)
        algorithms = []
        _algorithms = d.pop("algorithms")
        for algorithms_item_data in _algorithms:
            algorithms_item = Algorithm(algorithms_item_data)

            algorithms.append(algorithms_item)

        cpu_offload = d.pop("cpu_offload")

        devices = cast(list[str], d.pop("devices"))

        def _parse_max_devices(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_devices = _parse_max_devices(d.pop("max_devices"))

        name = d.pop("name")

        runnable_here = []
        _runnable_here = d.pop("runnable_here")
        for runnable_here_item_data in _runnable_here:
            runnable_here_item = Algorithm(runnable_here_item_data)

            runnable_here.append(runnable_here_item)

        unavailable_here = []
        _unavailable_here = d.pop("unavailable_here")
        for unavailable_here_item_data in _unavailable_here:
            unavailable_here_item = UnavailableHere.from_dict(unavailable_here_item_data)

            unavailable_here.append(unavailable_here_item)

        zero_stages = cast(list[int], d.pop("zero_stages"))

        engine_read = cls(
            algorithms=algorithms,
            cpu_offload=cpu_offload,
            devices=devices,
            max_devices=max_devices,
            name=name,
            runnable_here=runnable_here,
            unavailable_here=unavailable_here,
            zero_stages=zero_stages,
        )

        engine_read.additional_properties = d
        return engine_read

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
