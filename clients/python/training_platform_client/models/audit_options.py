from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AuditOptions")


@_attrs_define
class AuditOptions:
    """
    Attributes:
        max_tokens (int | None | Unset): Longer is an outlier; default: Tukey fence.
        min_tokens (int | None | Unset): Shorter is an outlier; default: Tukey fence.
        near_duplicates (bool | Unset): Look for near-duplicate prompts (MinHash). Default: True.
        near_threshold (float | Unset): Jaccard similarity of word bigrams (character bigrams in Chinese). Default: 0.8.
        outlier_factor (float | Unset): k of the fences Q1 - k·IQR, Q3 + k·IQR (log length). Default: 3.0.
        semantic (bool | Unset): Look for semantic duplicates (embeds every prompt). Default: False.
        semantic_threshold (float | Unset): Cosine similarity of embeddings. Default: 0.8.
        tokenizer (None | str | Unset): Model or tokenizer directory, or a registered model.
    """

    max_tokens: int | None | Unset = UNSET
    min_tokens: int | None | Unset = UNSET
    near_duplicates: bool | Unset = True
    near_threshold: float | Unset = 0.8
    outlier_factor: float | Unset = 3.0
    semantic: bool | Unset = False
    semantic_threshold: float | Unset = 0.8
    tokenizer: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        max_tokens: int | None | Unset
        if isinstance(self.max_tokens, Unset):
            max_tokens = UNSET
        else:
            max_tokens = self.max_tokens

        min_tokens: int | None | Unset
        if isinstance(self.min_tokens, Unset):
            min_tokens = UNSET
        else:
            min_tokens = self.min_tokens

        near_duplicates = self.near_duplicates

        near_threshold = self.near_threshold

        outlier_factor = self.outlier_factor

        semantic = self.semantic

        semantic_threshold = self.semantic_threshold

        tokenizer: None | str | Unset
        if isinstance(self.tokenizer, Unset):
            tokenizer = UNSET
        else:
            tokenizer = self.tokenizer

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if max_tokens is not UNSET:
            field_dict["max_tokens"] = max_tokens
        if min_tokens is not UNSET:
            field_dict["min_tokens"] = min_tokens
        if near_duplicates is not UNSET:
            field_dict["near_duplicates"] = near_duplicates
        if near_threshold is not UNSET:
            field_dict["near_threshold"] = near_threshold
        if outlier_factor is not UNSET:
            field_dict["outlier_factor"] = outlier_factor
        if semantic is not UNSET:
            field_dict["semantic"] = semantic
        if semantic_threshold is not UNSET:
            field_dict["semantic_threshold"] = semantic_threshold
        if tokenizer is not UNSET:
            field_dict["tokenizer"] = tokenizer

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_max_tokens(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_tokens = _parse_max_tokens(d.pop("max_tokens", UNSET))

        def _parse_min_tokens(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        min_tokens = _parse_min_tokens(d.pop("min_tokens", UNSET))

        near_duplicates = d.pop("near_duplicates", UNSET)

        near_threshold = d.pop("near_threshold", UNSET)

        outlier_factor = d.pop("outlier_factor", UNSET)

        semantic = d.pop("semantic", UNSET)

        semantic_threshold = d.pop("semantic_threshold", UNSET)

        def _parse_tokenizer(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tokenizer = _parse_tokenizer(d.pop("tokenizer", UNSET))

        audit_options = cls(
            max_tokens=max_tokens,
            min_tokens=min_tokens,
            near_duplicates=near_duplicates,
            near_threshold=near_threshold,
            outlier_factor=outlier_factor,
            semantic=semantic,
            semantic_threshold=semantic_threshold,
            tokenizer=tokenizer,
        )

        audit_options.additional_properties = d
        return audit_options

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
