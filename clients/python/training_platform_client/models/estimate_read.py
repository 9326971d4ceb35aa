from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.estimate_read_explanations import EstimateReadExplanations
    from ..models.estimate_read_per_gpu_bytes import EstimateReadPerGpuBytes
    from ..models.estimate_read_per_gpu_gib import EstimateReadPerGpuGib
    from ..models.gpu_read import GpuRead
    from ..models.model_preset_read import ModelPresetRead
    from ..models.speed_read import SpeedRead
    from ..models.term_read import TermRead


T = TypeVar("T", bound="EstimateRead")


@_attrs_define
class EstimateRead:
    """
    Attributes:
        capacity_bytes (int):
        cpu_offload_bytes (int):
        explanations (EstimateReadExplanations):
        fits (bool):
        gpu (GpuRead):
        model (ModelPresetRead):
        notes (list[str]):
        peak_phase (str):
        per_gpu_bytes (EstimateReadPerGpuBytes):
        per_gpu_gib (EstimateReadPerGpuGib):
        problems (list[str]):
        terms (list[TermRead]):
        trainable_parameters (int):
        speed (None | SpeedRead | Unset): One optimizer step of micro_batch × num_gpus samples; none on the CPU.
    """

    capacity_bytes: int
    cpu_offload_bytes: int
    explanations: EstimateReadExplanations
    fits: bool
    gpu: GpuRead
    model: ModelPresetRead
    notes: list[str]
    peak_phase: str
    per_gpu_bytes: EstimateReadPerGpuBytes
    per_gpu_gib: EstimateReadPerGpuGib
    problems: list[str]
    terms: list[TermRead]
    trainable_parameters: int
    speed: None | SpeedRead | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.speed_read import SpeedRead  # noqa: PLC0415

        capacity_bytes = self.capacity_bytes

        cpu_offload_bytes = self.cpu_offload_bytes

        explanations = self.explanations.to_dict()

        fits = self.fits

        gpu = self.gpu.to_dict()

        model = self.model.to_dict()

        notes = self.notes

        peak_phase = self.peak_phase

        per_gpu_bytes = self.per_gpu_bytes.to_dict()

        per_gpu_gib = self.per_gpu_gib.to_dict()

        problems = self.problems

        terms = []
        for terms_item_data in self.terms:
            terms_item = terms_item_data.to_dict()
            terms.append(terms_item)

        trainable_parameters = self.trainable_parameters

        speed: dict[str, Any] | None | Unset
        if isinstance(self.speed, Unset):
            speed = UNSET
        elif isinstance(self.speed, SpeedRead):
            speed = self.speed.to_dict()
        else:
            speed = self.speed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "capacity_bytes": capacity_bytes,
                "cpu_offload_bytes": cpu_offload_bytes,
                "explanations": explanations,
                "fits": fits,
                "gpu": gpu,
                "model": model,
                "notes": notes,
                "peak_phase": peak_phase,
                "per_gpu_bytes": per_gpu_bytes,
                "per_gpu_gib": per_gpu_gib,
                "problems": problems,
                "terms": terms,
                "trainable_parameters": trainable_parameters,
            }
        )
        if speed is not UNSET:
            field_dict["speed"] = speed

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.estimate_read_explanations import EstimateReadExplanations  # noqa: PLC0415
        from ..models.estimate_read_per_gpu_bytes import EstimateReadPerGpuBytes  # noqa: PLC0415
        from ..models.estimate_read_per_gpu_gib import EstimateReadPerGpuGib  # noqa: PLC0415
        from ..models.gpu_read import GpuRead  # noqa: PLC0415
        from ..models.model_preset_read import ModelPresetRead  # noqa: PLC0415
        from ..models.speed_read import SpeedRead  # noqa: PLC0415
        from ..models.term_read import TermRead  # noqa: PLC0415

        d = dict(src_dict)
        capacity_bytes = d.pop("capacity_bytes")

        cpu_offload_bytes = d.pop("cpu_offload_bytes")

        explanations = EstimateReadExplanations.from_dict(d.pop("explanations"))

        fits = d.pop("fits")

        gpu = GpuRead.from_dict(d.pop("gpu"))

        model = ModelPresetRead.from_dict(d.pop("model"))

        notes = cast(list[str], d.pop("notes"))

        peak_phase = d.pop("peak_phase")

        per_gpu_bytes = EstimateReadPerGpuBytes.from_dict(d.pop("per_gpu_bytes"))

        per_gpu_gib = EstimateReadPerGpuGib.from_dict(d.pop("per_gpu_gib"))

        problems = cast(list[str], d.pop("problems"))

        terms = []
        _terms = d.pop("terms")
        for terms_item_data in _terms:
            terms_item = TermRead.from_dict(terms_item_data)

            terms.append(terms_item)

        trainable_parameters = d.pop("trainable_parameters")

        def _parse_speed(data: object) -> None | SpeedRead | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                speed_type_0 = SpeedRead.from_dict(data)

                return speed_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SpeedRead | Unset, data)

        speed = _parse_speed(d.pop("speed", UNSET))

        estimate_read = cls(
            capacity_bytes=capacity_bytes,
            cpu_offload_bytes=cpu_offload_bytes,
            explanations=explanations,
            fits=fits,
            gpu=gpu,
            model=model,
            notes=notes,
            peak_phase=peak_phase,
            per_gpu_bytes=per_gpu_bytes,
            per_gpu_gib=per_gpu_gib,
            problems=problems,
            terms=terms,
            trainable_parameters=trainable_parameters,
            speed=speed,
        )

        estimate_read.additional_properties = d
        return estimate_read

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
