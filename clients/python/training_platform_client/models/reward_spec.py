from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.reward_spec_comparison import RewardSpecComparison
from ..models.reward_spec_extraction import RewardSpecExtraction
from ..models.reward_spec_type import RewardSpecType
from ..types import UNSET, Unset

T = TypeVar("T", bound="RewardSpec")


@_attrs_define
class RewardSpec:
    """
    Attributes:
        answer_field (str | Unset):  Default: 'solution'.
        comparison (RewardSpecComparison | Unset):  Default: RewardSpecComparison.NUMERIC.
        extraction (RewardSpecExtraction | Unset):  Default: RewardSpecExtraction.BOXED.
        function (None | str | Unset):
        fuzzy_threshold (float | Unset):  Default: 0.8.
        json_key (str | Unset):  Default: 'answer'.
        pattern (None | str | Unset):
        tolerance (float | Unset):  Default: 1e-06.
        type_ (RewardSpecType | Unset):  Default: RewardSpecType.MATH_VERIFY.
        weight (float | Unset):  Default: 1.0.
    """

    answer_field: str | Unset = "solution"
    comparison: RewardSpecComparison | Unset = RewardSpecComparison.NUMERIC
    extraction: RewardSpecExtraction | Unset = RewardSpecExtraction.BOXED
    function: None | str | Unset = UNSET
    fuzzy_threshold: float | Unset = 0.8
    json_key: str | Unset = "answer"
    pattern: None | str | Unset = UNSET
    tolerance: float | Unset = 1e-06
    type_: RewardSpecType | Unset = RewardSpecType.MATH_VERIFY
    weight: float | Unset = 1.0

    def to_dict(self) -> dict[str, Any]:
        answer_field = self.answer_field

        comparison: str | Unset = UNSET
        if not isinstance(self.comparison, Unset):
            comparison = self.comparison.value

        extraction: str | Unset = UNSET
        if not isinstance(self.extraction, Unset):
            extraction = self.extraction.value

        function: None | str | Unset
        if isinstance(self.function, Unset):
            function = UNSET
        else:
            function = self.function

        fuzzy_threshold = self.fuzzy_threshold

        json_key = self.json_key

        pattern: None | str | Unset
        if isinstance(self.pattern, Unset):
            pattern = UNSET
        else:
            pattern = self.pattern

        tolerance = self.tolerance

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        weight = self.weight

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if answer_field is not UNSET:
            field_dict["answer_field"] = answer_field
        if comparison is not UNSET:
            field_dict["comparison"] = comparison
        if extraction is not UNSET:
            field_dict["extraction"] = extraction
        if function is not UNSET:
            field_dict["function"] = function
        if fuzzy_threshold is not UNSET:
            field_dict["fuzzy_threshold"] = fuzzy_threshold
        if json_key is not UNSET:
            field_dict["json_key"] = json_key
        if pattern is not UNSET:
            field_dict["pattern"] = pattern
        if tolerance is not UNSET:
            field_dict["tolerance"] = tolerance
        if type_ is not UNSET:
            field_dict["type"] = type_
        if weight is not UNSET:
            field_dict["weight"] = weight

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        answer_field = d.pop("answer_field", UNSET)

        _comparison = d.pop("comparison", UNSET)
        comparison: RewardSpecComparison | Unset
        if isinstance(_comparison, Unset):
            comparison = UNSET
        else:
            comparison = RewardSpecComparison(_comparison)

        _extraction = d.pop("extraction", UNSET)
        extraction: RewardSpecExtraction | Unset
        if isinstance(_extraction, Unset):
            extraction = UNSET
        else:
            extraction = RewardSpecExtraction(_extraction)

        def _parse_function(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        function = _parse_function(d.pop("function", UNSET))

        fuzzy_threshold = d.pop("fuzzy_threshold", UNSET)

        json_key = d.pop("json_key", UNSET)

        def _parse_pattern(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        pattern = _parse_pattern(d.pop("pattern", UNSET))

        tolerance = d.pop("tolerance", UNSET)

        _type_ = d.pop("type", UNSET)
        type_: RewardSpecType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = RewardSpecType(_type_)

        weight = d.pop("weight", UNSET)

        reward_spec = cls(
            answer_field=answer_field,
            comparison=comparison,
            extraction=extraction,
            function=function,
            fuzzy_threshold=fuzzy_threshold,
            json_key=json_key,
            pattern=pattern,
            tolerance=tolerance,
            type_=type_,
            weight=weight,
        )

        return reward_spec
