from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.stage_type import StageType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.stage_spec_params import StageSpecParams


T = TypeVar("T", bound="StageSpec")


@_attrs_define
class StageSpec:
    """
    Attributes:
        name (str): Unique in the pipeline; references use it.
        type_ (StageType):
        depends_on (list[str] | Unset):
        params (StageSpecParams | Unset): What the stage type's own API takes; strings may hold ${stage.output}.
        retries (int | Unset): Attempts after the first when the stage fails. Default: 0.
        retry_delay_seconds (float | Unset):  Default: 0.0.
        when (None | str | Unset): Run only if this comparison holds, e.g. ${eval_dpo.metrics.accuracy} >
            ${eval_sft.metrics.accuracy}; otherwise the stage (and what depends on it) is skipped.
    """

    name: str
    type_: StageType
    depends_on: list[str] | Unset = UNSET
    params: StageSpecParams | Unset = UNSET
    retries: int | Unset = 0
    retry_delay_seconds: float | Unset = 0.0
    when: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_.value

        depends_on: list[str] | Unset = UNSET
        if not isinstance(self.depends_on, Unset):
            depends_on = self.depends_on

        params: dict[str, Any] | Unset = UNSET
        if not isinstance(self.params, Unset):
            params = self.params.to_dict()

        retries = self.retries

        retry_delay_seconds = self.retry_delay_seconds

        when: None | str | Unset
        if isinstance(self.when, Unset):
            when = UNSET
        else:
            when = self.when

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "type": type_,
            }
        )
        if depends_on is not UNSET:
            field_dict["depends_on"] = depends_on
        if params is not UNSET:
            field_dict["params"] = params
        if retries is not UNSET:
            field_dict["retries"] = retries
        if retry_delay_seconds is not UNSET:
            field_dict["retry_delay_seconds"] = retry_delay_seconds
        if when is not UNSET:
            field_dict["when"] = when

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stage_spec_params import StageSpecParams  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        type_ = StageType(d.pop("type"))

        depends_on = cast(list[str], d.pop("depends_on", UNSET))

        _params = d.pop("params", UNSET)
        params: StageSpecParams | Unset
        if isinstance(_params, Unset):
            params = UNSET
        else:
            params = StageSpecParams.from_dict(_params)

        retries = d.pop("retries", UNSET)

        retry_delay_seconds = d.pop("retry_delay_seconds", UNSET)

        def _parse_when(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        when = _parse_when(d.pop("when", UNSET))

        stage_spec = cls(
            name=name,
            type_=type_,
            depends_on=depends_on,
            params=params,
            retries=retries,
            retry_delay_seconds=retry_delay_seconds,
            when=when,
        )

        return stage_spec
