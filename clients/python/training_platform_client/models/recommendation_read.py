from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.duration_read import DurationRead
    from ..models.engine_configuration_read import EngineConfigurationRead
    from ..models.estimate_read import EstimateRead
    from ..models.estimate_request import EstimateRequest
    from ..models.recommendation_read_engine_settings_type_0 import RecommendationReadEngineSettingsType0
    from ..models.recommendation_read_params_type_0 import RecommendationReadParamsType0
    from ..models.recommendation_read_trl_arguments_type_0 import RecommendationReadTrlArgumentsType0


T = TypeVar("T", bound="RecommendationRead")


@_attrs_define
class RecommendationRead:
    """When it fits: the configuration, its estimate, the job's parameters and the engine that runs them; each
    engine shows the job in its own terms (verl's overrides, TRL's arguments), or why it cannot run it. Texts are
    in the request's language (Accept-Language).

        Attributes:
            algorithm (str):
            fits (bool):
            global_batch (int):
            reasons (list[str]):
            suggestions (list[str]):
            configuration (EstimateRequest | None | Unset):
            duration (DurationRead | None | Unset): Expected time per step and in total.
            engine (None | str | Unset):
            engine_settings (None | RecommendationReadEngineSettingsType0 | Unset): What it chose that the params do not
                hold, as the engine's own settings (a job's engine_settings): post both, with the engine, to create the job it
                sized.
            engines (list[EngineConfigurationRead] | Unset): Every engine's configuration of these params, from the same
                params.
            estimate (EstimateRead | None | Unset):
            gradient_accumulation (int | None | Unset):
            micro_batch (int | None | Unset):
            not_carried (list[str] | Unset): What the recommendation assumed that neither the params nor the engine settings
                hold, and why.
            params (None | RecommendationReadParamsType0 | Unset):
            trl_arguments (None | RecommendationReadTrlArgumentsType0 | Unset): TRL's trainer arguments in `engines`.
            verl_overrides (list[str] | None | Unset): verl's configuration in `engines`.
    """

    algorithm: str
    fits: bool
    global_batch: int
    reasons: list[str]
    suggestions: list[str]
    configuration: EstimateRequest | None | Unset = UNSET
    duration: DurationRead | None | Unset = UNSET
    engine: None | str | Unset = UNSET
    engine_settings: None | RecommendationReadEngineSettingsType0 | Unset = UNSET
    engines: list[EngineConfigurationRead] | Unset = UNSET
    estimate: EstimateRead | None | Unset = UNSET
    gradient_accumulation: int | None | Unset = UNSET
    micro_batch: int | None | Unset = UNSET
    not_carried: list[str] | Unset = UNSET
    params: None | RecommendationReadParamsType0 | Unset = UNSET
    trl_arguments: None | RecommendationReadTrlArgumentsType0 | Unset = UNSET
    verl_overrides: list[str] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.duration_read import DurationRead  # noqa: PLC0415
        from ..models.estimate_read import EstimateRead  # noqa: PLC0415
        from ..models.estimate_request import EstimateRequest  # noqa: PLC0415
        from ..models.recommendation_read_engine_settings_type_0 import (
            RecommendationReadEngineSettingsType0,  # noqa: PLC0415
        )
        from ..models.recommendation_read_params_type_0 import RecommendationReadParamsType0  # noqa: PLC0415
        from ..models.recommendation_read_trl_arguments_type_0 import (
            RecommendationReadTrlArgumentsType0,  # noqa: PLC0415
        )

        algorithm = self.algorithm

        fits = self.fits

        global_batch = self.global_batch

        reasons = self.reasons

        suggestions = self.suggestions

        configuration: dict[str, Any] | None | Unset
        if isinstance(self.configuration, Unset):
            configuration = UNSET
        elif isinstance(self.configuration, EstimateRequest):
            configuration = self.configuration.to_dict()
        else:
            configuration = self.configuration

        duration: dict[str, Any] | None | Unset
        if isinstance(self.duration, Unset):
            duration = UNSET
        elif isinstance(self.duration, DurationRead):
            duration = self.duration.to_dict()
        else:
            duration = self.duration

        engine: None | str | Unset
        if isinstance(self.engine, Unset):
            engine = UNSET
        else:
            engine = self.engine

        engine_settings: dict[str, Any] | None | Unset
        if isinstance(self.engine_settings, Unset):
            engine_settings = UNSET
        elif isinstance(self.engine_settings, RecommendationReadEngineSettingsType0):
            engine_settings = self.engine_settings.to_dict()
        else:
            engine_settings = self.engine_settings

        engines: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.engines, Unset):
            engines = []
            for engines_item_data in self.engines:
                engines_item = engines_item_data.to_dict()
                engines.append(engines_item)

        estimate: dict[str, Any] | None | Unset
        if isinstance(self.estimate, Unset):
            estimate = UNSET
        elif isinstance(self.estimate, EstimateRead):
            estimate = self.estimate.to_dict()
        else:
            estimate = self.estimate

        gradient_accumulation: int | None | Unset
        if isinstance(self.gradient_accumulation, Unset):
            gradient_accumulation = UNSET
        else:
            gradient_accumulation = self.gradient_accumulation

        micro_batch: int | None | Unset
        if isinstance(self.micro_batch, Unset):
            micro_batch = UNSET
        else:
            micro_batch = self.micro_batch

        not_carried: list[str] | Unset = UNSET
        if not isinstance(self.not_carried, Unset):
            not_carried = self.not_carried

        params: dict[str, Any] | None | Unset
        if isinstance(self.params, Unset):
            params = UNSET
        elif isinstance(self.params, RecommendationReadParamsType0):
            params = self.params.to_dict()
        else:
            params = self.params

        trl_arguments: dict[str, Any] | None | Unset
        if isinstance(self.trl_arguments, Unset):
            trl_arguments = UNSET
        elif isinstance(self.trl_arguments, RecommendationReadTrlArgumentsType0):
            trl_arguments = self.trl_arguments.to_dict()
        else:
            trl_arguments = self.trl_arguments

        verl_overrides: list[str] | None | Unset
        if isinstance(self.verl_overrides, Unset):
            verl_overrides = UNSET
        elif isinstance(self.verl_overrides, list):
            verl_overrides = self.verl_overrides

        else:
            verl_overrides = self.verl_overrides

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "algorithm": algorithm,
                "fits": fits,
                "global_batch": global_batch,
                "reasons": reasons,
                "suggestions": suggestions,
            }
        )
        if configuration is not UNSET:
            field_dict["configuration"] = configuration
        if duration is not UNSET:
            field_dict["duration"] = duration
        if engine is not UNSET:
            field_dict["engine"] = engine
        if engine_settings is not UNSET:
            field_dict["engine_settings"] = engine_settings
        if engines is not UNSET:
            field_dict["engines"] = engines
        if estimate is not UNSET:
            field_dict["estimate"] = estimate
        if gradient_accumulation is not UNSET:
            field_dict["gradient_accumulation"] = gradient_accumulation
        if micro_batch is not UNSET:
            field_dict["micro_batch"] = micro_batch
        if not_carried is not UNSET:
            field_dict["not_carried"] = not_carried
        if params is not UNSET:
            field_dict["params"] = params
        if trl_arguments is not UNSET:
            field_dict["trl_arguments"] = trl_arguments
        if verl_overrides is not UNSET:
            field_dict["verl_overrides"] = verl_overrides

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.duration_read import DurationRead  # noqa: PLC0415
        from ..models.engine_configuration_read import EngineConfigurationRead  # noqa: PLC0415
        from ..models.estimate_read import EstimateRead  # noqa: PLC0415
        from ..models.estimate_request import EstimateRequest  # noqa: PLC0415
        from ..models.recommendation_read_engine_settings_type_0 import (
            RecommendationReadEngineSettingsType0,  # noqa: PLC0415
        )
        from ..models.recommendation_read_params_type_0 import RecommendationReadParamsType0  # noqa: PLC0415
        from ..models.recommendation_read_trl_arguments_type_0 import (
            RecommendationReadTrlArgumentsType0,  # noqa: PLC0415
        )

        d = dict(src_dict)
        algorithm = d.pop("algorithm")

        fits = d.pop("fits")

        global_batch = d.pop("global_batch")

        reasons = cast(list[str], d.pop("reasons"))

        suggestions = cast(list[str], d.pop("suggestions"))

        def _parse_configuration(data: object) -> EstimateRequest | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                configuration_type_0 = EstimateRequest.from_dict(data)

                return configuration_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EstimateRequest | None | Unset, data)

        configuration = _parse_configuration(d.pop("configuration", UNSET))

        def _parse_duration(data: object) -> DurationRead | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                duration_type_0 = DurationRead.from_dict(data)

                return duration_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DurationRead | None | Unset, data)

        duration = _parse_duration(d.pop("duration", UNSET))

        def _parse_engine(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        engine = _parse_engine(d.pop("engine", UNSET))

        def _parse_engine_settings(data: object) -> None | RecommendationReadEngineSettingsType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                engine_settings_type_0 = RecommendationReadEngineSettingsType0.from_dict(data)

                return engine_settings_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RecommendationReadEngineSettingsType0 | Unset, data)

        engine_settings = _parse_engine_settings(d.pop("engine_settings", UNSET))

        _engines = d.pop("engines", UNSET)
        engines: list[EngineConfigurationRead] | Unset = UNSET
        if _engines is not UNSET:
            engines = []
            for engines_item_data in _engines:
                engines_item = EngineConfigurationRead.from_dict(engines_item_data)

                engines.append(engines_item)

        def _parse_estimate(data: object) -> EstimateRead | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                estimate_type_0 = EstimateRead.from_dict(data)

                return estimate_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EstimateRead | None | Unset, data)

        estimate = _parse_estimate(d.pop("estimate", UNSET))

        def _parse_gradient_accumulation(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        gradient_accumulation = _parse_gradient_accumulation(d.pop("gradient_accumulation", UNSET))

        def _parse_micro_batch(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        micro_batch = _parse_micro_batch(d.pop("micro_batch", UNSET))

        not_carried = cast(list[str], d.pop("not_carried", UNSET))

        def _parse_params(data: object) -> None | RecommendationReadParamsType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                params_type_0 = RecommendationReadParamsType0.from_dict(data)

                return params_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RecommendationReadParamsType0 | Unset, data)

        params = _parse_params(d.pop("params", UNSET))

        def _parse_trl_arguments(data: object) -> None | RecommendationReadTrlArgumentsType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                trl_arguments_type_0 = RecommendationReadTrlArgumentsType0.from_dict(data)

                return trl_arguments_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RecommendationReadTrlArgumentsType0 | Unset, data)

        trl_arguments = _parse_trl_arguments(d.pop("trl_arguments", UNSET))

        def _parse_verl_overrides(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                verl_overrides_type_0 = cast(list[str], data)

                return verl_overrides_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        verl_overrides = _parse_verl_overrides(d.pop("verl_overrides", UNSET))

        recommendation_read = cls(
            algorithm=algorithm,
            fits=fits,
            global_batch=global_batch,
            reasons=reasons,
            suggestions=suggestions,
            configuration=configuration,
            duration=duration,
            engine=engine,
            engine_settings=engine_settings,
            engines=engines,
            estimate=estimate,
            gradient_accumulation=gradient_accumulation,
            micro_batch=micro_batch,
            not_carried=not_carried,
            params=params,
            trl_arguments=trl_arguments,
            verl_overrides=verl_overrides,
        )

        recommendation_read.additional_properties = d
        return recommendation_read

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
