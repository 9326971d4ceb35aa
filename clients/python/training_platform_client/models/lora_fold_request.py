from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.lora_fold_request_dtype_type_0 import LoraFoldRequestDtypeType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="LoraFoldRequest")


@_attrs_define
class LoraFoldRequest:
    """
    Attributes:
        adapter (str): A peft adapter directory.
        name (str): The run's job name; its result is registered as a model of this name.
        base_model (None | str | Unset): Unset: the model the adapter's job trained from.
        dtype (LoraFoldRequestDtypeType0 | None | Unset): The dtype the weights are combined and written in; unset: the
            base model's (or the first's).
        num_gpus (int | Unset): 0: on the CPU; 1: the arithmetic on one GPU. Default: 0.
        run_mode (str | Unset): local, ray (PLATFORM_RAY_ADDRESS), or ssh:<host> for a host an admin added (GET /hosts).
            Default: 'local'.
        start (bool | Unset): Start the run now (it queues behind others for a GPU). Default: True.
    """

    adapter: str
    name: str
    base_model: None | str | Unset = UNSET
    dtype: LoraFoldRequestDtypeType0 | None | Unset = UNSET
    num_gpus: int | Unset = 0
    run_mode: str | Unset = "local"
    start: bool | Unset = True

    def to_dict(self) -> dict[str, Any]:
        adapter = self.adapter

        name = self.name

        base_model: None | str | Unset
        if isinstance(self.base_model, Unset):
            base_model = UNSET
        else:
            base_model = self.base_model

        dtype: None | str | Unset
        if isinstance(self.dtype, Unset):
            dtype = UNSET
        elif isinstance(self.dtype, LoraFoldRequestDtypeType0):
            dtype = self.dtype.value
        else:
            dtype = self.dtype

        num_gpus = self.num_gpus

        run_mode = self.run_mode

        start = self.start

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "adapter": adapter,
                "name": name,
            }
        )
        if base_model is not UNSET:
            field_dict["base_model"] = base_model
        if dtype is not UNSET:
            field_dict["dtype"] = dtype
        if num_gpus is not UNSET:
            field_dict["num_gpus"] = num_gpus
        if run_mode is not UNSET:
            field_dict["run_mode"] = run_mode
        if start is not UNSET:
            field_dict["start"] = start

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        adapter = d.pop("adapter")

        name = d.pop("name")

        def _parse_base_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        base_model = _parse_base_model(d.pop("base_model", UNSET))

        def _parse_dtype(data: object) -> LoraFoldRequestDtypeType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                dtype_type_0 = LoraFoldRequestDtypeType0(data)

                return dtype_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LoraFoldRequestDtypeType0 | None | Unset, data)

        dtype = _parse_dtype(d.pop("dtype", UNSET))

        num_gpus = d.pop("num_gpus", UNSET)

        run_mode = d.pop("run_mode", UNSET)

        start = d.pop("start", UNSET)

        lora_fold_request = cls(
            adapter=adapter,
            name=name,
            base_model=base_model,
            dtype=dtype,
            num_gpus=num_gpus,
            run_mode=run_mode,
            start=start,
        )

        return lora_fold_request
