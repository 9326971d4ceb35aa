from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.malformed_out import MalformedOut


T = TypeVar("T", bound="ImportOut")


@_attrs_define
class ImportOut:
    """An imported file: the job it went into (made for it when the name was new) and what was read.

    Attributes:
        bytes_read (int):
        job_id (str):
        job_name (str):
        malformed (list[MalformedOut]):
        records (int):
        rewrites (int):
        values (int):
    """

    bytes_read: int
    job_id: str
    job_name: str
    malformed: list[MalformedOut]
    records: int
    rewrites: int
    values: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bytes_read = self.bytes_read

        job_id = self.job_id

        job_name = self.job_name

        malformed = []
        for malformed_item_data in self.malformed:
            malformed_item = malformed_item_data.to_dict()
            malformed.append(malformed_item)

        records = self.records

        rewrites = self.rewrites

        values = self.values

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bytes_read": bytes_read,
                "job_id": job_id,
                "job_name": job_name,
                "malformed": malformed,
                "records": records,
                "rewrites": rewrites,
                "values": values,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.malformed_out import MalformedOut  # noqa: PLC0415

        d = dict(src_dict)
        bytes_read = d.pop("bytes_read")

        job_id = d.pop("job_id")

        job_name = d.pop("job_name")

        malformed = []
        _malformed = d.pop("malformed")
        for malformed_item_data in _malformed:
            malformed_item = MalformedOut.from_dict(malformed_item_data)

            malformed.append(malformed_item)

        records = d.pop("records")

        rewrites = d.pop("rewrites")

        values = d.pop("values")

        import_out = cls(
            bytes_read=bytes_read,
            job_id=job_id,
            job_name=job_name,
            malformed=malformed,
            records=records,
            rewrites=rewrites,
            values=values,
        )

        import_out.additional_properties = d
        return import_out

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
