from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.job_preview_configuration import JobPreviewConfiguration
    from ..models.job_preview_engine_settings import JobPreviewEngineSettings


T = TypeVar("T", bound="JobPreview")


@_attrs_define
class JobPreview:
    """What a job would run, before it exists: nothing is created, written or started.

    Attributes:
        command (list[str]): The command its process would start with (an argument list).
        configuration (JobPreviewConfiguration): The engine's own configuration: TRL's trainer arguments (and LoRA's,
            accelerate's), or the overrides of verl's command; engine settings included.
        device (str): What it would train on here: cuda when its run mode has GPUs, else cpu.
        engine (str): The engine that would run it (an `auto` request's choice).
        engine_settings (JobPreviewEngineSettings): The job's engine settings, as the configuration has them.
        output_dir (str): Where its files would be: a created job gets a folder of its own instead.
    """

    command: list[str]
    configuration: JobPreviewConfiguration
    device: str
    engine: str
    engine_settings: JobPreviewEngineSettings
    output_dir: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        command = self.command

        configuration = self.configuration.to_dict()

        device = self.device

        engine = self.engine

        engine_settings = self.engine_settings.to_dict()

        output_dir = self.output_dir

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "command": command,
                "configuration": configuration,
                "device": device,
                "engine": engine,
                "engine_settings": engine_settings,
                "output_dir": output_dir,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.job_preview_configuration import JobPreviewConfiguration  # noqa: PLC0415
        from ..models.job_preview_engine_settings import JobPreviewEngineSettings  # noqa: PLC0415

        d = dict(src_dict)
        command = cast(list[str], d.pop("command"))

        configuration = JobPreviewConfiguration.from_dict(d.pop("configuration"))

        device = d.pop("device")

        engine = d.pop("engine")

        engine_settings = JobPreviewEngineSettings.from_dict(d.pop("engine_settings"))

        output_dir = d.pop("output_dir")

        job_preview = cls(
            command=command,
            configuration=configuration,
            device=device,
            engine=engine,
            engine_settings=engine_settings,
            output_dir=output_dir,
        )

        job_preview.additional_properties = d
        return job_preview

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
