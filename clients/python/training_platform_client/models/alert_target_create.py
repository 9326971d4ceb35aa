from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.alert_target_create_format import AlertTargetCreateFormat
from ..models.alert_target_create_severities_item import AlertTargetCreateSeveritiesItem
from ..types import UNSET, Unset

T = TypeVar("T", bound="AlertTargetCreate")


@_attrs_define
class AlertTargetCreate:
    """
    Attributes:
        name (str):
        url (str): The webhook: http(s)://… Slack's and Feishu's are secrets; the API shows them redacted.
        enabled (bool | Unset):  Default: True.
        format_ (AlertTargetCreateFormat | Unset):  Default: AlertTargetCreateFormat.GENERIC.
        job (None | str | Unset): A job's name or id: only its alerts. None: every job's.
        kinds (list[str] | Unset): The kinds sent; empty: every kind.
        severities (list[AlertTargetCreateSeveritiesItem] | Unset): The severities sent.
    """

    name: str
    url: str
    enabled: bool | Unset = True
    format_: AlertTargetCreateFormat | Unset = AlertTargetCreateFormat.GENERIC
    job: None | str | Unset = UNSET
    kinds: list[str] | Unset = UNSET
    severities: list[AlertTargetCreateSeveritiesItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        url = self.url

        enabled = self.enabled

        format_: str | Unset = UNSET
        if not isinstance(self.format_, Unset):
            format_ = self.format_.value

        job: None | str | Unset
        if isinstance(self.job, Unset):
            job = UNSET
        else:
            job = self.job

        kinds: list[str] | Unset = UNSET
        if not isinstance(self.kinds, Unset):
            kinds = self.kinds

        severities: list[str] | Unset = UNSET
        if not isinstance(self.severities, Unset):
            severities = []
            for severities_item_data in self.severities:
                severities_item = severities_item_data.value
                severities.append(severities_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "url": url,
            }
        )
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if format_ is not UNSET:
            field_dict["format"] = format_
        if job is not UNSET:
            field_dict["job"] = job
        if kinds is not UNSET:
            field_dict["kinds"] = kinds
        if severities is not UNSET:
            field_dict["severities"] = severities

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        url = d.pop("url")

        enabled = d.pop("enabled", UNSET)

        _format_ = d.pop("format", UNSET)
        format_: AlertTargetCreateFormat | Unset
        if isinstance(_format_, Unset):
            format_ = UNSET
        else:
            format_ = AlertTargetCreateFormat(_format_)

        def _parse_job(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        job = _parse_job(d.pop("job", UNSET))

        kinds = cast(list[str], d.pop("kinds", UNSET))

        _severities = d.pop("severities", UNSET)
        severities: list[AlertTargetCreateSeveritiesItem] | Unset = UNSET
        if _severities is not UNSET:
            severities = []
            for severities_item_data in _severities:
                severities_item = AlertTargetCreateSeveritiesItem(severities_item_data)

                severities.append(severities_item)

        alert_target_create = cls(
            name=name,
            url=url,
            enabled=enabled,
            format_=format_,
            job=job,
            kinds=kinds,
            severities=severities,
        )

        return alert_target_create
