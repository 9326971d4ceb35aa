from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ModelTargetRequest")


@_attrs_define
class ModelTargetRequest:
    """A model to generate from in the run's process: a reference the platform resolves to a model directory.

    Attributes:
        model (str): job:<job> (its final model), job:<job>@<checkpoint>, model:<registered name>, or a directory.
        batch_size (int | Unset): Prompts generated together. Default: 8.
        kind (Literal['model'] | Unset):  Default: 'model'.
    """

    model: str
    batch_size: int | Unset = 8
    kind: Literal["model"] | Unset = "model"

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        batch_size = self.batch_size

        kind = self.kind

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "model": model,
            }
        )
        if batch_size is not UNSET:
            field_dict["batch_size"] = batch_size
        if kind is not UNSET:
            field_dict["kind"] = kind

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        model = d.pop("model")

        batch_size = d.pop("batch_size", UNSET)

        kind = cast(Literal["model"] | Unset, d.pop("kind", UNSET))
        if kind != "model" and not isinstance(kind, Unset):
            raise ValueError(f"kind must match const 'model', got '{kind}'")

        model_target_request = cls(
            model=model,
            batch_size=batch_size,
            kind=kind,
        )

        return model_target_request
