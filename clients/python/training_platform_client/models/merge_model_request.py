from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.merge_model_request_parameters import MergeModelRequestParameters


T = TypeVar("T", bound="MergeModelRequest")


@_attrs_define
class MergeModelRequest:
    """
    Attributes:
        model (str):
        parameters (MergeModelRequestParameters | Unset): Per model: weight, density (as the method takes).
    """

    model: str
    parameters: MergeModelRequestParameters | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        parameters: dict[str, Any] | Unset = UNSET
        if not isinstance(self.parameters, Unset):
            parameters = self.parameters.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "model": model,
            }
        )
        if parameters is not UNSET:
            field_dict["parameters"] = parameters

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.merge_model_request_parameters import MergeModelRequestParameters  # noqa: PLC0415

        d = dict(src_dict)
        model = d.pop("model")

        _parameters = d.pop("parameters", UNSET)
        parameters: MergeModelRequestParameters | Unset
        if isinstance(_parameters, Unset):
            parameters = UNSET
        else:
            parameters = MergeModelRequestParameters.from_dict(_parameters)

        merge_model_request = cls(
            model=model,
            parameters=parameters,
        )

        return merge_model_request
