from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.compare_request_direction_type_0 import CompareRequestDirectionType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="CompareRequest")


@_attrs_define
class CompareRequest:
    """
    Attributes:
        runs (list[str]): 2 to 5 runs on the same dataset, by name or id.
        baseline (None | str | Unset): The run the others are compared to; default the first.
        category (None | str | Unset):
        direction (CompareRequestDirectionType0 | None | Unset):
        limit (int | Unset):  Default: 50.
        metric (None | str | Unset): The metric key a sample's direction is read from.
        offset (int | Unset):  Default: 0.
        search (None | str | Unset): Text in the prompt, a reference or an answer.
    """

    runs: list[str]
    baseline: None | str | Unset = UNSET
    category: None | str | Unset = UNSET
    direction: CompareRequestDirectionType0 | None | Unset = UNSET
    limit: int | Unset = 50
    metric: None | str | Unset = UNSET
    offset: int | Unset = 0
    search: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        runs = self.runs

        baseline: None | str | Unset
        if isinstance(self.baseline, Unset):
            baseline = UNSET
        else:
            baseline = self.baseline

        category: None | str | Unset
        if isinstance(self.category, Unset):
            category = UNSET
        else:
            category = self.category

        direction: None | str | Unset
        if isinstance(self.direction, Unset):
            direction = UNSET
        elif isinstance(self.direction, CompareRequestDirectionType0):
            direction = self.direction.value
        else:
            direction = self.direction

        limit = self.limit

        metric: None | str | Unset
        if isinstance(self.metric, Unset):
            metric = UNSET
        else:
            metric = self.metric

        offset = self.offset

        search: None | str | Unset
        if isinstance(self.search, Unset):
            search = UNSET
        else:
            search = self.search

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "runs": runs,
            }
        )
        if baseline is not UNSET:
            field_dict["baseline"] = baseline
        if category is not UNSET:
            field_dict["category"] = category
        if direction is not UNSET:
            field_dict["direction"] = direction
        if limit is not UNSET:
            field_dict["limit"] = limit
        if metric is not UNSET:
            field_dict["metric"] = metric
        if offset is not UNSET:
            field_dict["offset"] = offset
        if search is not UNSET:
            field_dict["search"] = search

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        runs = cast(list[str], d.pop("runs"))

        def _parse_baseline(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        baseline = _parse_baseline(d.pop("baseline", UNSET))

        def _parse_category(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        category = _parse_category(d.pop("category", UNSET))

        def _parse_direction(data: object) -> CompareRequestDirectionType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                direction_type_0 = CompareRequestDirectionType0(data)

                return direction_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CompareRequestDirectionType0 | None | Unset, data)

        direction = _parse_direction(d.pop("direction", UNSET))

        limit = d.pop("limit", UNSET)

        def _parse_metric(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        metric = _parse_metric(d.pop("metric", UNSET))

        offset = d.pop("offset", UNSET)

        def _parse_search(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        search = _parse_search(d.pop("search", UNSET))

        compare_request = cls(
            runs=runs,
            baseline=baseline,
            category=category,
            direction=direction,
            limit=limit,
            metric=metric,
            offset=offset,
            search=search,
        )

        return compare_request
