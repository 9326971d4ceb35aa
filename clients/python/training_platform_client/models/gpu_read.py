from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="GpuRead")


@_attrs_define
class GpuRead:
    """
    Attributes:
        bandwidth_gbs (float):
        bf16_tflops (float):
        host_memory_bytes (int):
        kind (str):
        memory_bytes (int):
        memory_gib (float):
        name (str):
        note (str):
    """

    bandwidth_gbs: float
    bf16_tflops: float
    host_memory_bytes: int
    kind: str
    memory_bytes: int
    memory_gib: float
    name: str
    note: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bandwidth_gbs = self.bandwidth_gbs

        bf16_tflops = self.bf16_tflops

        host_memory_bytes = self.host_memory_bytes

        kind = self.kind

        memory_bytes = self.memory_bytes

        memory_gib = self.memory_gib

        name = self.name

        note = self.note

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bandwidth_gbs": bandwidth_gbs,
                "bf16_tflops": bf16_tflops,
                "host_memory_bytes": host_memory_bytes,
                "kind": kind,
                "memory_bytes": memory_bytes,
                "memory_gib": memory_gib,
                "name": name,
                "note": note,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bandwidth_gbs = d.pop("bandwidth_gbs")

        bf16_tflops = d.pop("bf16_tflops")

        host_memory_bytes = d.pop("host_memory_bytes")

        kind = d.pop("kind")

        memory_bytes = d.pop("memory_bytes")

        memory_gib = d.pop("memory_gib")

        name = d.pop("name")

        note = d.pop("note")

        gpu_read = cls(
            bandwidth_gbs=bandwidth_gbs,
            bf16_tflops=bf16_tflops,
            host_memory_bytes=host_memory_bytes,
            kind=kind,
            memory_bytes=memory_bytes,
            memory_gib=memory_gib,
            name=name,
            note=note,
        )

        gpu_read.additional_properties = d
        return gpu_read

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
