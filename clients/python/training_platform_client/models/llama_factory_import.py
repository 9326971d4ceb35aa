from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="LlamaFactoryImport")


@_attrs_define
class LlamaFactoryImport:
    """A LLaMA-Factory project's dataset_info.json, each local dataset it describes registered where it is
    (datasets/llamafactory.py).

        Attributes:
            path (str): The dataset_info.json on the server's disk, or the folder holding it (LLaMA-Factory's dataset_dir),
                under the data roots.
            dry_run (bool | Unset): Say what would be registered, register nothing. Default: False.
            prefix (str | Unset): Put before each entry's name to make the dataset's name (e.g. 'lf-'). Default: ''.
    """

    path: str
    dry_run: bool | Unset = False
    prefix: str | Unset = ""

    def to_dict(self) -> dict[str, Any]:
        path = self.path

        dry_run = self.dry_run

        prefix = self.prefix

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "path": path,
            }
        )
        if dry_run is not UNSET:
            field_dict["dry_run"] = dry_run
        if prefix is not UNSET:
            field_dict["prefix"] = prefix

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        path = d.pop("path")

        dry_run = d.pop("dry_run", UNSET)

        prefix = d.pop("prefix", UNSET)

        llama_factory_import = cls(
            path=path,
            dry_run=dry_run,
            prefix=prefix,
        )

        return llama_factory_import
