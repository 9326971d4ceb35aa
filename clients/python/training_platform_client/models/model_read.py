from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.model_read_lineage_type_0 import ModelReadLineageType0


T = TypeVar("T", bound="ModelRead")


@_attrs_define
class ModelRead:
    """
    Attributes:
        architecture (str):
        created_at (datetime.datetime):
        description (str):
        id (str):
        job_id (None | str): The surgery run that wrote it; None for a model registered by hand.
        lineage (ModelReadLineageType0 | None): How it was made (its surgery.json): the operation, each input with its
            job, step and sha256, the parameters.
        name (str):
        num_parameters (int | None):
        path (str):
    """

    architecture: str
    created_at: datetime.datetime
    description: str
    id: str
    job_id: None | str
    lineage: ModelReadLineageType0 | None
    name: str
    num_parameters: int | None
    path: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.model_read_lineage_type_0 import ModelReadLineageType0  # noqa: PLC0415

        architecture = self.architecture

        created_at = self.created_at.isoformat()

        description = self.description

        id = self.id

        job_id: None | str
        job_id = self.job_id

        lineage: dict[str, Any] | None
        if isinstance(self.lineage, ModelReadLineageType0):
            lineage = self.lineage.to_dict()
        else:
            lineage = self.lineage

        name = self.name

        num_parameters: int | None
        num_parameters = self.num_parameters

        path = self.path

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "architecture": architecture,
                "created_at": created_at,
                "description": description,
                "id": id,
                "job_id": job_id,
                "lineage": lineage,
                "name": name,
                "num_parameters": num_parameters,
                "path": path,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.model_read_lineage_type_0 import ModelReadLineageType0  # noqa: PLC0415

        d = dict(src_dict)
        architecture = d.pop("architecture")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        description = d.pop("description")

        id = d.pop("id")

        def _parse_job_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        job_id = _parse_job_id(d.pop("job_id"))

        def _parse_lineage(data: object) -> ModelReadLineageType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                lineage_type_0 = ModelReadLineageType0.from_dict(data)

                return lineage_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ModelReadLineageType0 | None, data)

        lineage = _parse_lineage(d.pop("lineage"))

        name = d.pop("name")

        def _parse_num_parameters(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        num_parameters = _parse_num_parameters(d.pop("num_parameters"))

        path = d.pop("path")

        model_read = cls(
            architecture=architecture,
            created_at=created_at,
            description=description,
            id=id,
            job_id=job_id,
            lineage=lineage,
            name=name,
            num_parameters=num_parameters,
            path=path,
        )

        model_read.additional_properties = d
        return model_read

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
