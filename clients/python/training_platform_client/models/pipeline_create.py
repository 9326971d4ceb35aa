from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.pipeline_definition import PipelineDefinition


T = TypeVar("T", bound="PipelineCreate")


@_attrs_define
class PipelineCreate:
    """
    Attributes:
        definition (None | PipelineDefinition | Unset):
        start (bool | Unset): Start the pipeline right after creating it. Default: False.
        text (None | str | Unset): The pipeline as YAML.
    """

    definition: None | PipelineDefinition | Unset = UNSET
    start: bool | Unset = False
    text: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.pipeline_definition import PipelineDefinition  # noqa: PLC0415

        definition: dict[str, Any] | None | Unset
        if isinstance(self.definition, Unset):
            definition = UNSET
        elif isinstance(self.definition, PipelineDefinition):
            definition = self.definition.to_dict()
        else:
            definition = self.definition

        start = self.start

        text: None | str | Unset
        if isinstance(self.text, Unset):
            text = UNSET
        else:
            text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if definition is not UNSET:
            field_dict["definition"] = definition
        if start is not UNSET:
            field_dict["start"] = start
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pipeline_definition import PipelineDefinition  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_definition(data: object) -> None | PipelineDefinition | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                definition_type_0 = PipelineDefinition.from_dict(data)

                return definition_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PipelineDefinition | Unset, data)

        definition = _parse_definition(d.pop("definition", UNSET))

        start = d.pop("start", UNSET)

        def _parse_text(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        text = _parse_text(d.pop("text", UNSET))

        pipeline_create = cls(
            definition=definition,
            start=start,
            text=text,
        )

        return pipeline_create
