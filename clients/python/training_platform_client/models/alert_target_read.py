from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.alert_target_read_format import AlertTargetReadFormat
from ..models.alert_target_read_severities_item import AlertTargetReadSeveritiesItem

T = TypeVar("T", bound="AlertTargetRead")


@_attrs_define
class AlertTargetRead:
    """
    Attributes:
        created_at (datetime.datetime):
        enabled (bool):
        format_ (AlertTargetReadFormat):
        id (str):
        job_id (None | str):
        kinds (list[str]):
        name (str):
        severities (list[AlertTargetReadSeveritiesItem]):
        url (str): scheme://host/… : the rest of a webhook URL is its secret.
    """

    created_at: datetime.datetime
    enabled: bool
    format_: AlertTargetReadFormat
    id: str
    job_id: None | str
    kinds: list[str]
    name: str
    severities: list[AlertTargetReadSeveritiesItem]
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        enabled = self.enabled

        format_ = self.format_.value

        id = self.id

        job_id: None | str
        job_id = self.job_id

        kinds = self.kinds

        name = self.name

        severities = []
        for severities_item_data in self.severities:
            severities_item = severities_item_data.value
            severities.append(severities_item)

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "enabled": enabled,
                "format": format_,
                "id": id,
                "job_id": job_id,
                "kinds": kinds,
                "name": name,
                "severities": severities,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        enabled = d.pop("enabled")

        format_ = AlertTargetReadFormat(d.pop("format"))

        id = d.pop("id")

        def _parse_job_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        job_id = _parse_job_id(d.pop("job_id"))

        kinds = cast(list[str], d.pop("kinds"))

        name = d.pop("name")

        severities = []
        _severities = d.pop("severities")
        for severities_item_data in _severities:
            severities_item = AlertTargetReadSeveritiesItem(severities_item_data)

            severities.append(severities_item)

        url = d.pop("url")

        alert_target_read = cls(
            created_at=created_at,
            enabled=enabled,
            format_=format_,
            id=id,
            job_id=job_id,
            kinds=kinds,
            name=name,
            severities=severities,
            url=url,
        )

        alert_target_read.additional_properties = d
        return alert_target_read

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
