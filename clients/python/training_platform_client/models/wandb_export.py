from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..models.wandb_export_mode import WandbExportMode
from ..types import UNSET, Unset

T = TypeVar("T", bound="WandbExport")


@_attrs_define
class WandbExport:
    """A W&B run: offline (a run directory under the job's, for `wandb sync`) unless `mode` is online, which needs
    the API key in the secret `api_key_secret`.

        Attributes:
            api_key_secret (str | Unset): The secret holding the W&B API key. Default: 'wandb_api_key'.
            entity (None | str | Unset):
            kind (Literal['wandb'] | Unset):  Default: 'wandb'.
            mode (WandbExportMode | Unset):  Default: WandbExportMode.OFFLINE.
            project (str | Unset):  Default: 'training-platform'.
    """

    api_key_secret: str | Unset = "wandb_api_key"
    entity: None | str | Unset = UNSET
    kind: Literal["wandb"] | Unset = "wandb"
    mode: WandbExportMode | Unset = WandbExportMode.OFFLINE
    project: str | Unset = "training-platform"

    def to_dict(self) -> dict[str, Any]:
        api_key_secret = self.api_key_secret

        entity: None | str | Unset
        if isinstance(self.entity, Unset):
            entity = UNSET
        else:
            entity = self.entity

        kind = self.kind

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        project = self.project

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if api_key_secret is not UNSET:
            field_dict["api_key_secret"] = api_key_secret
        if entity is not UNSET:
            field_dict["entity"] = entity
        if kind is not UNSET:
            field_dict["kind"] = kind
        if mode is not UNSET:
            field_dict["mode"] = mode
        if project is not UNSET:
            field_dict["project"] = project

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        api_key_secret = d.pop("api_key_secret", UNSET)

        def _parse_entity(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        entity = _parse_entity(d.pop("entity", UNSET))

        kind = cast(Literal["wandb"] | Unset, d.pop("kind", UNSET))
        if kind != "wandb" and not isinstance(kind, Unset):
            raise ValueError(f"kind must match const 'wandb', got '{kind}'")

        _mode = d.pop("mode", UNSET)
        mode: WandbExportMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = WandbExportMode(_mode)

        project = d.pop("project", UNSET)

        wandb_export = cls(
            api_key_secret=api_key_secret,
            entity=entity,
            kind=kind,
            mode=mode,
            project=project,
        )

        return wandb_export
