from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.host_read_auth import HostReadAuth

if TYPE_CHECKING:
    from ..models.host_read_environment import HostReadEnvironment
    from ..models.host_report import HostReport


T = TypeVar("T", bound="HostRead")


@_attrs_define
class HostRead:
    """
    Attributes:
        auth (HostReadAuth):
        cpus (int | None):
        created_at (datetime.datetime):
        environment (HostReadEnvironment):
        gpus (list[int]):
        host (str):
        host_key_fingerprint (None | str): SHA256 of the host key trusted on first use.
        name (str):
        port (int):
        python (str):
        report (HostReport | None): What the last connection test found.
        run_mode (str): What a job names to run here.
        tested_at (datetime.datetime | None):
        username (str):
        work_dir (str):
    """

    auth: HostReadAuth
    cpus: int | None
    created_at: datetime.datetime
    environment: HostReadEnvironment
    gpus: list[int]
    host: str
    host_key_fingerprint: None | str
    name: str
    port: int
    python: str
    report: HostReport | None
    run_mode: str
    tested_at: datetime.datetime | None
    username: str
    work_dir: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.host_report import HostReport  # noqa: PLC0415

        auth = self.auth.value

        cpus: int | None
        cpus = self.cpus

        created_at = self.created_at.isoformat()

        environment = self.environment.to_dict()

        gpus = self.gpus

        host = self.host

        host_key_fingerprint: None | str
        host_key_fingerprint = self.host_key_fingerprint

        name = self.name

        port = self.port

        python = self.python

        report: dict[str, Any] | None
        if isinstance(self.report, HostReport):
            report = self.report.to_dict()
        else:
            report = self.report

        run_mode = self.run_mode

        tested_at: None | str
        if isinstance(self.tested_at, datetime.datetime):
            tested_at = self.tested_at.isoformat()
        else:
            tested_at = self.tested_at

        username = self.username

        work_dir = self.work_dir

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "auth": auth,
                "cpus": cpus,
                "created_at": created_at,
                "environment": environment,
                "gpus": gpus,
                "host": host,
                "host_key_fingerprint": host_key_fingerprint,
                "name": name,
                "port": port,
                "python": python,
                "report": report,
                "run_mode": run_mode,
                "tested_at": tested_at,
                "username": username,
                "work_dir": work_dir,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.host_read_environment import HostReadEnvironment  # noqa: PLC0415
        from ..models.host_report import HostReport  # noqa: PLC0415

        d = dict(src_dict)
        auth = HostReadAuth(d.pop("auth"))

        def _parse_cpus(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        cpus = _parse_cpus(d.pop("cpus"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        environment = HostReadEnvironment.from_dict(d.pop("environment"))

        gpus = cast(list[int], d.pop("gpus"))

        host = d.pop("host")

        def _parse_host_key_fingerprint(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        host_key_fingerprint = _parse_host_key_fingerprint(d.pop("host_key_fingerprint"))

        name = d.pop("name")

        port = d.pop("port")

        python = d.pop("python")

        def _parse_report(data: object) -> HostReport | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                report_type_0 = HostReport.from_dict(data)

                return report_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HostReport | None, data)

        report = _parse_report(d.pop("report"))

        run_mode = d.pop("run_mode")

        def _parse_tested_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                tested_at_type_0 = datetime.datetime.fromisoformat(data)

                return tested_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        tested_at = _parse_tested_at(d.pop("tested_at"))

        username = d.pop("username")

        work_dir = d.pop("work_dir")

        host_read = cls(
            auth=auth,
            cpus=cpus,
            created_at=created_at,
            environment=environment,
            gpus=gpus,
            host=host,
            host_key_fingerprint=host_key_fingerprint,
            name=name,
            port=port,
            python=python,
            report=report,
            run_mode=run_mode,
            tested_at=tested_at,
            username=username,
            work_dir=work_dir,
        )

        host_read.additional_properties = d
        return host_read

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
