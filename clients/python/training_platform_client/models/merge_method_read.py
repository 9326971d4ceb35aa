from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.merge_method_read_base import MergeMethodReadBase

if TYPE_CHECKING:
    from ..models.merge_method_read_parameters import MergeMethodReadParameters
    from ..models.merge_method_read_per_model import MergeMethodReadPerModel


T = TypeVar("T", bound="MergeMethodRead")


@_attrs_define
class MergeMethodRead:
    """A merge method as the page that offers it shows it: its help and what it takes (None: required).

    Attributes:
        base (MergeMethodReadBase):
        help_ (str):
        max_models (int | None):
        min_models (int):
        name (str):
        parameters (MergeMethodReadParameters):
        per_model (MergeMethodReadPerModel):
        reference (str):
    """

    base: MergeMethodReadBase
    help_: str
    max_models: int | None
    min_models: int
    name: str
    parameters: MergeMethodReadParameters
    per_model: MergeMethodReadPerModel
    reference: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        base = self.base.value

        help_ = self.help_

        max_models: int | None
        max_models = self.max_models

        min_models = self.min_models

        name = self.name

        parameters = self.parameters.to_dict()

        per_model = self.per_model.to_dict()

        reference = self.reference

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "base": base,
                "help": help_,
                "max_models": max_models,
                "min_models": min_models,
                "name": name,
                "parameters": parameters,
                "per_model": per_model,
                "reference": reference,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.merge_method_read_parameters import MergeMethodReadParameters  # noqa: PLC0415
        from ..models.merge_method_read_per_model import MergeMethodReadPerModel  # noqa: PLC0415

        d = dict(src_dict)
        base = MergeMethodReadBase(d.pop("base"))

        help_ = d.pop("help")

        def _parse_max_models(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_models = _parse_max_models(d.pop("max_models"))

        min_models = d.pop("min_models")

        name = d.pop("name")

        parameters = MergeMethodReadParameters.from_dict(d.pop("parameters"))

        per_model = MergeMethodReadPerModel.from_dict(d.pop("per_model"))

        reference = d.pop("reference")

        merge_method_read = cls(
            base=base,
            help_=help_,
            max_models=max_models,
            min_models=min_models,
            name=name,
            parameters=parameters,
            per_model=per_model,
            reference=reference,
        )

        merge_method_read.additional_properties = d
        return merge_method_read

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
