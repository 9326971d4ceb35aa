from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.remote_gpu import RemoteGpu


T = TypeVar("T", bound="HostReport")


@_attrs_define
class HostReport:
    """What `test connection` found.

    Attributes:
        disk_free_bytes (int):
        executable (str):
        python (str):
        work_dir_exists (bool):
        agent (bool | Unset):  Default: False.
        agent_error (None | str | Unset):
        cpus (int | None | Unset):
        gpus (list[RemoteGpu] | Unset):
        memory_available_bytes (int | None | Unset):
        memory_total_bytes (int | None | Unset):
        nvidia_smi (bool | Unset):  Default: False.
        package (None | str | Unset):
        problems (list[str] | Unset):
    """

    disk_free_bytes: int
    executable: str
    python: str
    work_dir_exists: bool
    agent: bool | Unset = False
    agent_error: None | str | Unset = UNSET
    cpus: int | None | Unset = UNSET
    gpus: list[RemoteGpu] | Unset = UNSET
    memory_available_bytes: int | None | Unset = UNSET
    memory_total_bytes: int | None | Unset = UNSET
    nvidia_smi: bool | Unset = False
    package: None | str | Unset = UNSET
    problems: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        disk_free_bytes = self.disk_free_bytes

        executable = self.executable

        python = self.python

        work_dir_exists = self.work_dir_exists

        agent = self.agent

        agent_error: None | str | Unset
        if isinstance(self.agent_error, Unset):
            agent_error = UNSET
        else:
            agent_error = self.agent_error

        cpus: int | None | Unset
        if isinstance(self.cpus, Unset):
            cpus = UNSET
        else:
            cpus = self.cpus

        gpus: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.gpus, Unset):
            gpus = []
            for gpus_item_data in self.gpus:
                gpus_item = gpus_item_data.to_dict()
                gpus.append(gpus_item)

        memory_available_bytes: int | None | Unset
        if isinstance(self.memory_available_bytes, Unset):
            memory_available_bytes = UNSET
        else:
            memory_available_bytes = self.memory_available_bytes

        memory_total_bytes: int | None | Unset
        if isinstance(self.memory_total_bytes, Unset):
            memory_total_bytes = UNSET
        else:
            memory_total_bytes = self.memory_total_bytes

        nvidia_smi = self.nvidia_smi

        package: None | str | Unset
        if isinstance(self.package, Unset):
            package = UNSET
        else:
            package = self.package

        problems: list[str] | Unset = UNSET
        if not isinstance(self.problems, Unset):
            problems = self.problems

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "disk_free_bytes": disk_free_bytes,
                "executable": executable,
                "python": python,
                "work_dir_exists": work_dir_exists,
            }
        )
        if agent is not UNSET:
            field_dict["agent"] = agent
        if agent_error is not UNSET:
            field_dict["agent_error"] = agent_error
        if cpus is not UNSET:
            field_dict["cpus"] = cpus
        if gpus is not UNSET:
            field_dict["gpus"] = gpus
        if memory_available_bytes is not UNSET:
            field_dict["memory_available_bytes"] = memory_available_bytes
        if memory_total_bytes is not UNSET:
            field_dict["memory_total_bytes"] = memory_total_bytes
        if nvidia_smi is not UNSET:
            field_dict["nvidia_smi"] = nvidia_smi
        if package is not UNSET:
            field_dict["package"] = package
        if problems is not UNSET:
            field_dict["problems"] = problems

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.remote_gpu import RemoteGpu  # noqa: PLC0415

        d = dict(src_dict)
        disk_free_bytes = d.pop("disk_free_bytes")

        executable = d.pop("executable")

        python = d.pop("python")

        work_dir_exists = d.pop("work_dir_exists")

        agent = d.pop("agent", UNSET)

        def _parse_agent_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent_error = _parse_agent_error(d.pop("agent_error", UNSET))

        def _parse_cpus(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        cpus = _parse_cpus(d.pop("cpus", UNSET))

        _gpus = d.pop("gpus", UNSET)
        gpus: list[RemoteGpu] | Unset = UNSET
        if _gpus is not UNSET:
            gpus = []
            for gpus_item_data in _gpus:
                gpus_item = RemoteGpu.from_dict(gpus_item_data)

                gpus.append(gpus_item)

        def _parse_memory_available_bytes(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        memory_available_bytes = _parse_memory_available_bytes(d.pop("memory_available_bytes", UNSET))

        def _parse_memory_total_bytes(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        memory_total_bytes = _parse_memory_total_bytes(d.pop("memory_total_bytes", UNSET))

        nvidia_smi = d.pop("nvidia_smi", UNSET)

        def _parse_package(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        package = _parse_package(d.pop("package", UNSET))

        problems = cast(list[str], d.pop("problems", UNSET))

        host_report = cls(
            disk_free_bytes=disk_free_bytes,
            executable=executable,
            python=python,
            work_dir_exists=work_dir_exists,
            agent=agent,
            agent_error=agent_error,
            cpus=cpus,
            gpus=gpus,
            memory_available_bytes=memory_available_bytes,
            memory_total_bytes=memory_total_bytes,
            nvidia_smi=nvidia_smi,
            package=package,
            problems=problems,
        )

        host_report.additional_properties = d
        return host_report

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
