from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="JobFileCreate")


@_attrs_define
class JobFileCreate:
    """
    Attributes:
        text (str): The job file: YAML or JSON, at most 262144 bytes; its keys: name, algorithm, engine, model_path,
            dataset_paths, eval_dataset_path, params, run_mode, health, trackers, engine_settings, dataset_formats.
        name (None | str | Unset): Create it under this name instead of the file's.
        start (bool | Unset): Start the job right after creating it. Default: False.
    """

    text: str
    name: None | str | Unset = UNSET
    start: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        text = self.text

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        start = self.start

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "text": text,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name
        if start is not UNSET:
            field_dict["start"] = start

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        text = d.pop("text")

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        start = d.pop("start", UNSET)

        job_file_create = cls(
            text=text,
            name=name,
            start=start,
        )

        return job_file_create
