from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.stage_type import StageType

if TYPE_CHECKING:
    from ..models.stage_type_read_params_schema import StageTypeReadParamsSchema


T = TypeVar("T", bound="StageTypeRead")


@_attrs_define
class StageTypeRead:
    """
    Attributes:
        help_ (str):
        outputs (list[str]): What `${stage.<output>}` may name; `metrics.*` any recorded key.
        params_schema (StageTypeReadParamsSchema): The JSON schema of the stage's parameters.
        type_ (StageType):
    """

    help_: str
    outputs: list[str]
    params_schema: StageTypeReadParamsSchema
    type_: StageType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        help_ = self.help_

        outputs = self.outputs

        params_schema = self.params_schema.to_dict()

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "help": help_,
                "outputs": outputs,
                "params_schema": params_schema,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stage_type_read_params_schema import StageTypeReadParamsSchema  # noqa: PLC0415

        d = dict(src_dict)
        help_ = d.pop("help")

        outputs = cast(list[str], d.pop("outputs"))

        params_schema = StageTypeReadParamsSchema.from_dict(d.pop("params_schema"))

        type_ = StageType(d.pop("type"))

        stage_type_read = cls(
            help_=help_,
            outputs=outputs,
            params_schema=params_schema,
            type_=type_,
        )

        stage_type_read.additional_properties = d
        return stage_type_read

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
