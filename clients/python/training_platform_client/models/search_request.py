from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SearchRequest")


@_attrs_define
class SearchRequest:
    """
    Attributes:
        query (str):
        top_k (int | Unset):  Default: 5.
    """

    query: str
    top_k: int | Unset = 5

    def to_dict(self) -> dict[str, Any]:
        query = self.query

        top_k = self.top_k

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "query": query,
            }
        )
        if top_k is not UNSET:
            field_dict["top_k"] = top_k

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        query = d.pop("query")

        top_k = d.pop("top_k", UNSET)

        search_request = cls(
            query=query,
            top_k=top_k,
        )

        return search_request
