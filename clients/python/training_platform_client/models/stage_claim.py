from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="StageClaim")


@_attrs_define
class StageClaim:
    """
    Attributes:
        task_id (str):
        worker (str | Unset):  Default: ''.
    """

    task_id: str
    worker: str | Unset = ""

    def to_dict(self) -> dict[str, Any]:
        task_id = self.task_id

        worker = self.worker

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "task_id": task_id,
            }
        )
        if worker is not UNSET:
            field_dict["worker"] = worker

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        task_id = d.pop("task_id")

        worker = d.pop("worker", UNSET)

        stage_claim = cls(
            task_id=task_id,
            worker=worker,
        )

        return stage_claim
