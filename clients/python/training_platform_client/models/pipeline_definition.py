from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.stage_spec import StageSpec


T = TypeVar("T", bound="PipelineDefinition")


@_attrs_define
class PipelineDefinition:
    """
    Attributes:
        name (str):
        stages (list[StageSpec]):
        concurrency (int | Unset): Stages of one layer that run at the same time. Default: 2.
        description (str | Unset):  Default: ''.
    """

    name: str
    stages: list[StageSpec]
    concurrency: int | Unset = 2
    description: str | Unset = ""

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        stages = []
        for stages_item_data in self.stages:
            stages_item = stages_item_data.to_dict()
            stages.append(stages_item)

        concurrency = self.concurrency

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "stages": stages,
            }
        )
        if concurrency is not UNSET:
            field_dict["concurrency"] = concurrency
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stage_spec import StageSpec  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        stages = []
        _stages = d.pop("stages")
        for stages_item_data in _stages:
            stages_item = StageSpec.from_dict(stages_item_data)

            stages.append(stages_item)

        concurrency = d.pop("concurrency", UNSET)

        description = d.pop("description", UNSET)

        pipeline_definition = cls(
            name=name,
            stages=stages,
            concurrency=concurrency,
            description=description,
        )

        return pipeline_definition
