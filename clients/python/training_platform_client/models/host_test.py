from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.host_report import HostReport


T = TypeVar("T", bound="HostTest")


@_attrs_define
class HostTest:
    """A connection test: what the host has, or why it could not be reached or used.

    Attributes:
        ok (bool):
        error (None | str | Unset):
        host_key_fingerprint (None | str | Unset):
        report (HostReport | None | Unset):
        trusted_now (bool | Unset): The host key was recorded by this test (first use). Default: False.
    """

    ok: bool
    error: None | str | Unset = UNSET
    host_key_fingerprint: None | str | Unset = UNSET
    report: HostReport | None | Unset = UNSET
    trusted_now: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.host_report import HostReport  # noqa: PLC0415

        ok = self.ok

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        host_key_fingerprint: None | str | Unset
        if isinstance(self.host_key_fingerprint, Unset):
            host_key_fingerprint = UNSET
        else:
            host_key_fingerprint = self.host_key_fingerprint

        report: dict[str, Any] | None | Unset
        if isinstance(self.report, Unset):
            report = UNSET
        elif isinstance(self.report, HostReport):
            report = self.report.to_dict()
        else:
            report = self.report

        trusted_now = self.trusted_now

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ok": ok,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error
        if host_key_fingerprint is not UNSET:
            field_dict["host_key_fingerprint"] = host_key_fingerprint
        if report is not UNSET:
            field_dict["report"] = report
        if trusted_now is not UNSET:
            field_dict["trusted_now"] = trusted_now

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.host_report import HostReport  # noqa: PLC0415

        d = dict(src_dict)
        ok = d.pop("ok")

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        def _parse_host_key_fingerprint(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        host_key_fingerprint = _parse_host_key_fingerprint(d.pop("host_key_fingerprint", UNSET))

        def _parse_report(data: object) -> HostReport | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                report_type_0 = HostReport.from_dict(data)

                return report_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HostReport | None | Unset, data)

        report = _parse_report(d.pop("report", UNSET))

        trusted_now = d.pop("trusted_now", UNSET)

        host_test = cls(
            ok=ok,
            error=error,
            host_key_fingerprint=host_key_fingerprint,
            report=report,
            trusted_now=trusted_now,
        )

        host_test.additional_properties = d
        return host_test

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
