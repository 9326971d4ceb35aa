from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TensorBoardExport")


@_attrs_define
class TensorBoardExport:
    """TensorBoard event files under the job's directory (`<output_dir>/tensorboard/`).

    Attributes:
        kind (Literal['tensorboard'] | Unset):  Default: 'tensorboard'.
    """

    kind: Literal["tensorboard"] | Unset = "tensorboard"

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if kind is not UNSET:
            field_dict["kind"] = kind

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = cast(Literal["tensorboard"] | Unset, d.pop("kind", UNSET))
        if kind != "tensorboard" and not isinstance(kind, Unset):
            raise ValueError(f"kind must match const 'tensorboard', got '{kind}'")

        tensor_board_export = cls(
            kind=kind,
        )

        return tensor_board_export
