from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sample_record_details import SampleRecordDetails
    from ..models.sample_record_prompt_type_1_item import SampleRecordPromptType1Item
    from ..models.sample_record_values import SampleRecordValues


T = TypeVar("T", bound="SampleRecord")


@_attrs_define
class SampleRecord:
    """One line of a run's sample file: the sample, every answer, and each metric's value on it.

    Attributes:
        index (int):
        outputs (list[str]):
        prompt (list[SampleRecordPromptType1Item] | str):
        values (SampleRecordValues):
        category (None | str | Unset):
        details (SampleRecordDetails | Unset):
        references (list[str] | Unset):
        seconds (float | Unset):  Default: 0.0.
    """

    index: int
    outputs: list[str]
    prompt: list[SampleRecordPromptType1Item] | str
    values: SampleRecordValues
    category: None | str | Unset = UNSET
    details: SampleRecordDetails | Unset = UNSET
    references: list[str] | Unset = UNSET
    seconds: float | Unset = 0.0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        index = self.index

        outputs = self.outputs

        prompt: list[dict[str, Any]] | str
        if isinstance(self.prompt, list):
            prompt = []
            for prompt_type_1_item_data in self.prompt:
                prompt_type_1_item = prompt_type_1_item_data.to_dict()
                prompt.append(prompt_type_1_item)

        else:
            prompt = self.prompt

        values = self.values.to_dict()

        category: None | str | Unset
        if isinstance(self.category, Unset):
            category = UNSET
        else:
            category = self.category

        details: dict[str, Any] | Unset = UNSET
        if not isinstance(self.details, Unset):
            details = self.details.to_dict()

        references: list[str] | Unset = UNSET
        if not isinstance(self.references, Unset):
            references = self.references

        seconds = self.seconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "index": index,
                "outputs": outputs,
                "prompt": prompt,
                "values": values,
            }
        )
        if category is not UNSET:
            field_dict["category"] = category
        if details is not UNSET:
            field_dict["details"] = details
        if references is not UNSET:
            field_dict["references"] = references
        if seconds is not UNSET:
            field_dict["seconds"] = seconds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sample_record_details import SampleRecordDetails  # noqa: PLC0415
        from ..models.sample_record_prompt_type_1_item import SampleRecordPromptType1Item  # noqa: PLC0415
        from ..models.sample_record_values import SampleRecordValues  # noqa: PLC0415

        d = dict(src_dict)
        index = d.pop("index")

        outputs = cast(list[str], d.pop("outputs"))

        def _parse_prompt(data: object) -> list[SampleRecordPromptType1Item] | str:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                prompt_type_1 = []
                _prompt_type_1 = data
                for prompt_type_1_item_data in _prompt_type_1:
                    prompt_type_1_item = SampleRecordPromptType1Item.from_dict(prompt_type_1_item_data)

                    prompt_type_1.append(prompt_type_1_item)

                return prompt_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[SampleRecordPromptType1Item] | str, data)

        prompt = _parse_prompt(d.pop("prompt"))

        values = SampleRecordValues.from_dict(d.pop("values"))

        def _parse_category(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        category = _parse_category(d.pop("category", UNSET))

        _details = d.pop("details", UNSET)
        details: SampleRecordDetails | Unset
        if isinstance(_details, Unset):
            details = UNSET
        else:
            details = SampleRecordDetails.from_dict(_details)

        references = cast(list[str], d.pop("references", UNSET))

        seconds = d.pop("seconds", UNSET)

        sample_record = cls(
            index=index,
            outputs=outputs,
            prompt=prompt,
            values=values,
            category=category,
            details=details,
            references=references,
            seconds=seconds,
        )

        sample_record.additional_properties = d
        return sample_record

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
