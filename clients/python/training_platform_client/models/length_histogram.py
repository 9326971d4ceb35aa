from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="LengthHistogram")


@_attrs_define
class LengthHistogram:
    """datasets/stats.py Histogram: edges[i] <= tokens < edges[i+1] for counts[i] samples.

    Attributes:
        counts (list[int]):
        edges (list[int]):
    """

    counts: list[int]
    edges: list[int]

    def to_dict(self) -> dict[str, Any]:
        counts = self.counts

        edges = self.edges

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "counts": counts,
                "edges": edges,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        counts = cast(list[int], d.pop("counts"))

        edges = cast(list[int], d.pop("edges"))

        length_histogram = cls(
            counts=counts,
            edges=edges,
        )

        return length_histogram
