from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.average_request_dtype_type_0 import AverageRequestDtypeType0
from ..models.average_request_mode import AverageRequestMode
from ..types import UNSET, Unset

T = TypeVar("T", bound="AverageRequest")


@_attrs_define
class AverageRequest:
    """
    Attributes:
        job (str): The job whose checkpoints are averaged.
        name (str): The run's job name; its result is registered as a model of this name.
        decay (float | Unset): EMA: each older checkpoint weighs `decay` x the next. Default: 0.9.
        dtype (AverageRequestDtypeType0 | None | Unset): The dtype the weights are combined and written in; unset: the
            base model's (or the first's).
        from_step (int | None | Unset):
        mode (AverageRequestMode | Unset):  Default: AverageRequestMode.SWA.
        num_gpus (int | Unset): 0: on the CPU; 1: the arithmetic on one GPU. Default: 0.
        run_mode (str | Unset): local, ray (PLATFORM_RAY_ADDRESS), or ssh:<host> for a host an admin added (GET /hosts).
            Default: 'local'.
        start (bool | Unset): Start the run now (it queues behind others for a GPU). Default: True.
        to_step (int | None | Unset):
    """

    job: str
    name: str
    decay: float | Unset = 0.9
    dtype: AverageRequestDtypeType0 | None | Unset = UNSET
    from_step: int | None | Unset = UNSET
    mode: AverageRequestMode | Unset = AverageRequestMode.SWA
    num_gpus: int | Unset = 0
    run_mode: str | Unset = "local"
    start: bool | Unset = True
    to_step: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        job = self.job

        name = self.name

        decay = self.decay

        dtype: None | str | Unset
        if isinstance(self.dtype, Unset):
            dtype = UNSET
        elif isinstance(self.dtype, AverageRequestDtypeType0):
            dtype = self.dtype.value
        else:
            dtype = self.dtype

        from_step: int | None | Unset
        if isinstance(self.from_step, Unset):
            from_step = UNSET
        else:
            from_step = self.from_step

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        num_gpus = self.num_gpus

        run_mode = self.run_mode

        start = self.start

        to_step: int | None | Unset
        if isinstance(self.to_step, Unset):
            to_step = UNSET
        else:
            to_step = self.to_step

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "job": job,
                "name": name,
            }
        )
        if decay is not UNSET:
            field_dict["decay"] = decay
        if dtype is not UNSET:
            field_dict["dtype"] = dtype
        if from_step is not UNSET:
            field_dict["from_step"] = from_step
        if mode is not UNSET:
            field_dict["mode"] = mode
        if num_gpus is not UNSET:
            field_dict["num_gpus"] = num_gpus
        if run_mode is not UNSET:
            field_dict["run_mode"] = run_mode
        if start is not UNSET:
            field_dict["start"] = start
        if to_step is not UNSET:
            field_dict["to_step"] = to_step

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        job = d.pop("job")

        name = d.pop("name")

        decay = d.pop("decay", UNSET)

        def _parse_dtype(data: object) -> AverageRequestDtypeType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                dtype_type_0 = AverageRequestDtypeType0(data)

                return dtype_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AverageRequestDtypeType0 | None | Unset, data)

        dtype = _parse_dtype(d.pop("dtype", UNSET))

        def _parse_from_step(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        from_step = _parse_from_step(d.pop("from_step", UNSET))

        _mode = d.pop("mode", UNSET)
        mode: AverageRequestMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = AverageRequestMode(_mode)

        num_gpus = d.pop("num_gpus", UNSET)

        run_mode = d.pop("run_mode", UNSET)

        start = d.pop("start", UNSET)

        def _parse_to_step(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        to_step = _parse_to_step(d.pop("to_step", UNSET))

        average_request = cls(
            job=job,
            name=name,
            decay=decay,
            dtype=dtype,
            from_step=from_step,
            mode=mode,
            num_gpus=num_gpus,
            run_mode=run_mode,
            start=start,
            to_step=to_step,
        )

        return average_request
