from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.dedup_request_method import DedupRequestMethod
from ..types import UNSET, Unset

T = TypeVar("T", bound="DedupRequest")


@_attrs_define
class DedupRequest:
    """
    Attributes:
        method (DedupRequestMethod | Unset):  Default: DedupRequestMethod.SEMANTIC.
        name (None | str | Unset): Name of the new version (default '<name>-dedup').
        threshold (float | None | Unset): Cosine (semantic, default 0.8) or Jaccard (near, default 0.8).
    """

    method: DedupRequestMethod | Unset = DedupRequestMethod.SEMANTIC
    name: None | str | Unset = UNSET
    threshold: float | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        method: str | Unset = UNSET
        if not isinstance(self.method, Unset):
            method = self.method.value

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        threshold: float | None | Unset
        if isinstance(self.threshold, Unset):
            threshold = UNSET
        else:
            threshold = self.threshold

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if method is not UNSET:
            field_dict["method"] = method
        if name is not UNSET:
            field_dict["name"] = name
        if threshold is not UNSET:
            field_dict["threshold"] = threshold

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _method = d.pop("method", UNSET)
        method: DedupRequestMethod | Unset
        if isinstance(_method, Unset):
            method = UNSET
        else:
            method = DedupRequestMethod(_method)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_threshold(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        threshold = _parse_threshold(d.pop("threshold", UNSET))

        dedup_request = cls(
            method=method,
            name=name,
            threshold=threshold,
        )

        return dedup_request
