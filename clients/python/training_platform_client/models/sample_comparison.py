from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.sample_comparison_directions import SampleComparisonDirections
    from ..models.sample_comparison_outputs import SampleComparisonOutputs
    from ..models.sample_comparison_prompt_type_1_item import SampleComparisonPromptType1Item
    from ..models.sample_comparison_values import SampleComparisonValues


T = TypeVar("T", bound="SampleComparison")


@_attrs_define
class SampleComparison:
    """
    Attributes:
        category (None | str):
        directions (SampleComparisonDirections):
        index (int):
        outputs (SampleComparisonOutputs):
        prompt (list[SampleComparisonPromptType1Item] | str):
        references (list[str]):
        values (SampleComparisonValues):
    """

    category: None | str
    directions: SampleComparisonDirections
    index: int
    outputs: SampleComparisonOutputs
    prompt: list[SampleComparisonPromptType1Item] | str
    references: list[str]
    values: SampleComparisonValues
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        category: None | str
        category = self.category

        directions = self.directions.to_dict()

        index = self.index

        outputs = self.outputs.to_dict()

        prompt: list[dict[str, Any]] | str
        if isinstance(self.prompt, list):
            prompt = []
            for prompt_type_1_item_data in self.prompt:
                prompt_type_1_item = prompt_type_1_item_data.to_dict()
                prompt.append(prompt_type_1_item)

        else:
            prompt = self.prompt

        references = self.references

        values = self.values.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "category": category,
                "directions": directions,
                "index": index,
                "outputs": outputs,
                "prompt": prompt,
                "references": references,
                "values": values,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sample_comparison_directions import SampleComparisonDirections  # noqa: PLC0415
        from ..models.sample_comparison_outputs import SampleComparisonOutputs  # noqa: PLC0415
        from ..models.sample_comparison_prompt_type_1_item import SampleComparisonPromptType1Item  # noqa: PLC0415
        from ..models.sample_comparison_values import SampleComparisonValues  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_category(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        category = _parse_category(d.pop("category"))

        directions = SampleComparisonDirections.from_dict(d.pop("directions"))

        index = d.pop("index")

        outputs = SampleComparisonOutputs.from_dict(d.pop("outputs"))

        def _parse_prompt(data: object) -> list[SampleComparisonPromptType1Item] | str:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                prompt_type_1 = []
                _prompt_type_1 = data
                for prompt_type_1_item_data in _prompt_type_1:
                    prompt_type_1_item = SampleComparisonPromptType1Item.from_dict(prompt_type_1_item_data)

                    prompt_type_1.append(prompt_type_1_item)

                return prompt_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[SampleComparisonPromptType1Item] | str, data)

        prompt = _parse_prompt(d.pop("prompt"))

        references = cast(list[str], d.pop("references"))

        values = SampleComparisonValues.from_dict(d.pop("values"))

        sample_comparison = cls(
            category=category,
            directions=directions,
            index=index,
            outputs=outputs,
            prompt=prompt,
            references=references,
            values=values,
        )

        sample_comparison.additional_properties = d
        return sample_comparison

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
