from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.select_request_mode_type_0 import SelectRequestModeType0
from ..models.select_request_rule import SelectRequestRule
from ..types import UNSET, Unset

T = TypeVar("T", bound="SelectRequest")


@_attrs_define
class SelectRequest:
    """
    Attributes:
        job (str):
        from_step (int | None | Unset):
        key (None | str | Unset): rule 'metric': the recorded key.
        mode (None | SelectRequestModeType0 | Unset): rule 'metric': lowest or highest wins.
        rule (SelectRequestRule | Unset):  Default: SelectRequestRule.LOWEST_EVAL_LOSS.
        to_step (int | None | Unset):
    """

    job: str
    from_step: int | None | Unset = UNSET
    key: None | str | Unset = UNSET
    mode: None | SelectRequestModeType0 | Unset = UNSET
    rule: SelectRequestRule | Unset = SelectRequestRule.LOWEST_EVAL_LOSS
    to_step: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        job = self.job

        from_step: int | None | Unset
        if isinstance(self.from_step, Unset):
            from_step = UNSET
        else:
            from_step = self.from_step

        key: None | str | Unset
        if isinstance(self.key, Unset):
            key = UNSET
        else:
            key = self.key

        mode: None | str | Unset
        if isinstance(self.mode, Unset):
            mode = UNSET
        elif isinstance(self.mode, SelectRequestModeType0):
            mode = self.mode.value
        else:
            mode = self.mode

        rule: str | Unset = UNSET
        if not isinstance(self.rule, Unset):
            rule = self.rule.value

        to_step: int | None | Unset
        if isinstance(self.to_step, Unset):
            to_step = UNSET
        else:
            to_step = self.to_step

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "job": job,
            }
        )
        if from_step is not UNSET:
            field_dict["from_step"] = from_step
        if key is not UNSET:
            field_dict["key"] = key
        if mode is not UNSET:
            field_dict["mode"] = mode
        if rule is not UNSET:
            field_dict["rule"] = rule
        if to_step is not UNSET:
            field_dict["to_step"] = to_step

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        job = d.pop("job")

        def _parse_from_step(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        from_step = _parse_from_step(d.pop("from_step", UNSET))

        def _parse_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        key = _parse_key(d.pop("key", UNSET))

        def _parse_mode(data: object) -> None | SelectRequestModeType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                mode_type_0 = SelectRequestModeType0(data)

                return mode_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SelectRequestModeType0 | Unset, data)

        mode = _parse_mode(d.pop("mode", UNSET))

        _rule = d.pop("rule", UNSET)
        rule: SelectRequestRule | Unset
        if isinstance(_rule, Unset):
            rule = UNSET
        else:
            rule = SelectRequestRule(_rule)

        def _parse_to_step(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        to_step = _parse_to_step(d.pop("to_step", UNSET))

        select_request = cls(
            job=job,
            from_step=from_step,
            key=key,
            mode=mode,
            rule=rule,
            to_step=to_step,
        )

        return select_request
