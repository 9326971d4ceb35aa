from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.selection_read_mode_type_0 import SelectionReadModeType0
from ..models.selection_read_rule import SelectionReadRule

if TYPE_CHECKING:
    from ..models.selected_checkpoint import SelectedCheckpoint


T = TypeVar("T", bound="SelectionRead")


@_attrs_define
class SelectionRead:
    """
    Attributes:
        checkpoint (SelectedCheckpoint):
        considered (int): Complete checkpoints in the range with a value.
        job_id (str):
        job_name (str):
        key (None | str):
        mode (None | SelectionReadModeType0):
        reason (str):
        rule (SelectionReadRule):
        runner_up (None | SelectedCheckpoint):
    """

    checkpoint: SelectedCheckpoint
    considered: int
    job_id: str
    job_name: str
    key: None | str
    mode: None | SelectionReadModeType0
    reason: str
    rule: SelectionReadRule
    runner_up: None | SelectedCheckpoint
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.selected_checkpoint import SelectedCheckpoint  # noqa: PLC0415

        checkpoint = self.checkpoint.to_dict()

        considered = self.considered

        job_id = self.job_id

        job_name = self.job_name

        key: None | str
        key = self.key

        mode: None | str
        if isinstance(self.mode, SelectionReadModeType0):
            mode = self.mode.value
        else:
            mode = self.mode

        reason = self.reason

        rule = self.rule.value

        runner_up: dict[str, Any] | None
        if isinstance(self.runner_up, SelectedCheckpoint):
            runner_up = self.runner_up.to_dict()
        else:
            runner_up = self.runner_up

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "checkpoint": checkpoint,
                "considered": considered,
                "job_id": job_id,
                "job_name": job_name,
                "key": key,
                "mode": mode,
                "reason": reason,
                "rule": rule,
                "runner_up": runner_up,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.selected_checkpoint import SelectedCheckpoint  # noqa: PLC0415

        d = dict(src_dict)
        checkpoint = SelectedCheckpoint.from_dict(d.pop("checkpoint"))

        considered = d.pop("considered")

        job_id = d.pop("job_id")

        job_name = d.pop("job_name")

        def _parse_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        key = _parse_key(d.pop("key"))

        def _parse_mode(data: object) -> None | SelectionReadModeType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                mode_type_0 = SelectionReadModeType0(data)

                return mode_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SelectionReadModeType0, data)

        mode = _parse_mode(d.pop("mode"))

        reason = d.pop("reason")

        rule = SelectionReadRule(d.pop("rule"))

        def _parse_runner_up(data: object) -> None | SelectedCheckpoint:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                runner_up_type_0 = SelectedCheckpoint.from_dict(data)

                return runner_up_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SelectedCheckpoint, data)

        runner_up = _parse_runner_up(d.pop("runner_up"))

        selection_read = cls(
            checkpoint=checkpoint,
            considered=considered,
            job_id=job_id,
            job_name=job_name,
            key=key,
            mode=mode,
            reason=reason,
            rule=rule,
            runner_up=runner_up,
        )

        selection_read.additional_properties = d
        return selection_read

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
