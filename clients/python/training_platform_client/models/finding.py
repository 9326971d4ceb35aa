from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.finding_kind import FindingKind
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.finding_details import FindingDetails
    from ..models.finding_text_type_0 import FindingTextType0


T = TypeVar("T", bound="Finding")


@_attrs_define
class Finding:
    """
    Attributes:
        kind (FindingKind):
        message (str):
        rows (list[int]):
        details (FindingDetails | Unset):
        field (None | str | Unset):
        text (FindingTextType0 | None | Unset):
    """

    kind: FindingKind
    message: str
    rows: list[int]
    details: FindingDetails | Unset = UNSET
    field: None | str | Unset = UNSET
    text: FindingTextType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.finding_text_type_0 import FindingTextType0  # noqa: PLC0415

        kind = self.kind.value

        message = self.message

        rows = self.rows

        details: dict[str, Any] | Unset = UNSET
        if not isinstance(self.details, Unset):
            details = self.details.to_dict()

        field: None | str | Unset
        if isinstance(self.field, Unset):
            field = UNSET
        else:
            field = self.field

        text: dict[str, Any] | None | Unset
        if isinstance(self.text, Unset):
            text = UNSET
        elif isinstance(self.text, FindingTextType0):
            text = self.text.to_dict()
        else:
            text = self.text

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "message": message,
                "rows": rows,
            }
        )
        if details is not UNSET:
            field_dict["details"] = details
        if field is not UNSET:
            field_dict["field"] = field
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.finding_details import FindingDetails  # noqa: PLC0415
        from ..models.finding_text_type_0 import FindingTextType0  # noqa: PLC0415

        d = dict(src_dict)
        kind = FindingKind(d.pop("kind"))

        message = d.pop("message")

        rows = cast(list[int], d.pop("rows"))

        _details = d.pop("details", UNSET)
        details: FindingDetails | Unset
        if isinstance(_details, Unset):
            details = UNSET
        else:
            details = FindingDetails.from_dict(_details)

        def _parse_field(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        field = _parse_field(d.pop("field", UNSET))

        def _parse_text(data: object) -> FindingTextType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                text_type_0 = FindingTextType0.from_dict(data)

                return text_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FindingTextType0 | None | Unset, data)

        text = _parse_text(d.pop("text", UNSET))

        finding = cls(
            kind=kind,
            message=message,
            rows=rows,
            details=details,
            field=field,
            text=text,
        )

        finding.additional_properties = d
        return finding

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
