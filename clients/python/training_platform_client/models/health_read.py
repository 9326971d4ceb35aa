from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.health_read_health import HealthReadHealth

if TYPE_CHECKING:
    from ..models.finding_read import FindingRead
    from ..models.health_settings import HealthSettings


T = TypeVar("T", bound="HealthRead")


@_attrs_define
class HealthRead:
    """
    Attributes:
        findings (list[FindingRead]):
        health (HealthReadHealth): As its job shows it (JobRead.health): unknown until the job logged a step.
        job_id (str):
        job_name (str):
        settings (HealthSettings): A job's `health` field: detector overrides and automatic actions.
    """

    findings: list[FindingRead]
    health: HealthReadHealth
    job_id: str
    job_name: str
    settings: HealthSettings
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        findings = []
        for findings_item_data in self.findings:
            findings_item = findings_item_data.to_dict()
            findings.append(findings_item)

        health = self.health.value

        job_id = self.job_id

        job_name = self.job_name

        settings = self.settings.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "findings": findings,
                "health": health,
                "job_id": job_id,
                "job_name": job_name,
                "settings": settings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.finding_read import FindingRead  # noqa: PLC0415
        from ..models.health_settings import HealthSettings  # noqa: PLC0415

        d = dict(src_dict)
        findings = []
        _findings = d.pop("findings")
        for findings_item_data in _findings:
            findings_item = FindingRead.from_dict(findings_item_data)

            findings.append(findings_item)

        health = HealthReadHealth(d.pop("health"))

        job_id = d.pop("job_id")

        job_name = d.pop("job_name")

        settings = HealthSettings.from_dict(d.pop("settings"))

        health_read = cls(
            findings=findings,
            health=health,
            job_id=job_id,
            job_name=job_name,
            settings=settings,
        )

        health_read.additional_properties = d
        return health_read

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
