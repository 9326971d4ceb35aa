from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ResumeRequest")


@_attrs_define
class ResumeRequest:
    """
    Attributes:
        rerun (list[str] | Unset): Finished stages to run again (with what depends on them), e.g. after editing their
            parameters.
    """

    rerun: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        rerun: list[str] | Unset = UNSET
        if not isinstance(self.rerun, Unset):
            rerun = self.rerun

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if rerun is not UNSET:
            field_dict["rerun"] = rerun

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rerun = cast(list[str], d.pop("rerun", UNSET))

        resume_request = cls(
            rerun=rerun,
        )

        return resume_request
