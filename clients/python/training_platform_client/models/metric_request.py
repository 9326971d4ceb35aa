from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.metric_request_name import MetricRequestName
from ..models.metric_request_tokenize import MetricRequestTokenize
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.api_target import ApiTarget
    from ..models.model_target_request import ModelTargetRequest


T = TypeVar("T", bound="MetricRequest")


@_attrs_define
class MetricRequest:
    """
    Attributes:
        name (MetricRequestName):
        function (None | str | Unset):
        k (list[int] | Unset):
        max_new_tokens (int | Unset):  Default: 256.
        normalize (bool | Unset):  Default: True.
        rubric (None | str | Unset):
        scale (int | Unset):  Default: 10.
        target (ApiTarget | ModelTargetRequest | None | Unset):
        tokenize (MetricRequestTokenize | Unset):  Default: MetricRequestTokenize.AUTO.
    """

    name: MetricRequestName
    function: None | str | Unset = UNSET
    k: list[int] | Unset = UNSET
    max_new_tokens: int | Unset = 256
    normalize: bool | Unset = True
    rubric: None | str | Unset = UNSET
    scale: int | Unset = 10
    target: ApiTarget | ModelTargetRequest | None | Unset = UNSET
    tokenize: MetricRequestTokenize | Unset = MetricRequestTokenize.AUTO

    def to_dict(self) -> dict[str, Any]:
        from ..models.api_target import ApiTarget  # noqa: PLC0415
        from ..models.model_target_request import ModelTargetRequest  # noqa: PLC0415

        name = self.name.value

        function: None | str | Unset
        if isinstance(self.function, Unset):
            function = UNSET
        else:
            function = self.function

        k: list[int] | Unset = UNSET
        if not isinstance(self.k, Unset):
            k = self.k

        max_new_tokens = self.max_new_tokens

        normalize = self.normalize

        rubric: None | str | Unset
        if isinstance(self.rubric, Unset):
            rubric = UNSET
        else:
            rubric = self.rubric

        scale = self.scale

        target: dict[str, Any] | None | Unset
        if isinstance(self.target, Unset):
            target = UNSET
        elif isinstance(self.target, ModelTargetRequest):
            target = self.target.to_dict()
        elif isinstance(self.target, ApiTarget):
            target = self.target.to_dict()
        else:
            target = self.target

        tokenize: str | Unset = UNSET
        if not isinstance(self.tokenize, Unset):
            tokenize = self.tokenize.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if function is not UNSET:
            field_dict["function"] = function
        if k is not UNSET:
            field_dict["k"] = k
        if max_new_tokens is not UNSET:
            field_dict["max_new_tokens"] = max_new_tokens
        if normalize is not UNSET:
            field_dict["normalize"] = normalize
        if rubric is not UNSET:
            field_dict["rubric"] = rubric
        if scale is not UNSET:
            field_dict["scale"] = scale
        if target is not UNSET:
            field_dict["target"] = target
        if tokenize is not UNSET:
            field_dict["tokenize"] = tokenize

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.api_target import ApiTarget  # noqa: PLC0415
        from ..models.model_target_request import ModelTargetRequest  # noqa: PLC0415

        d = dict(src_dict)
        name = MetricRequestName(d.pop("name"))

        def _parse_function(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        function = _parse_function(d.pop("function", UNSET))

        k = cast(list[int], d.pop("k", UNSET))

        max_new_tokens = d.pop("max_new_tokens", UNSET)

        normalize = d.pop("normalize", UNSET)

        def _parse_rubric(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        rubric = _parse_rubric(d.pop("rubric", UNSET))

        scale = d.pop("scale", UNSET)

        def _parse_target(data: object) -> ApiTarget | ModelTargetRequest | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                target_type_0_type_0 = ModelTargetRequest.from_dict(data)

                return target_type_0_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                target_type_0_type_1 = ApiTarget.from_dict(data)

                return target_type_0_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ApiTarget | ModelTargetRequest | None | Unset, data)

        target = _parse_target(d.pop("target", UNSET))

        _tokenize = d.pop("tokenize", UNSET)
        tokenize: MetricRequestTokenize | Unset
        if isinstance(_tokenize, Unset):
            tokenize = UNSET
        else:
            tokenize = MetricRequestTokenize(_tokenize)

        metric_request = cls(
            name=name,
            function=function,
            k=k,
            max_new_tokens=max_new_tokens,
            normalize=normalize,
            rubric=rubric,
            scale=scale,
            target=target,
            tokenize=tokenize,
        )

        return metric_request
