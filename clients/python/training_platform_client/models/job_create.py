from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.algorithm import Algorithm
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.health_settings import HealthSettings
    from ..models.job_create_engine_settings import JobCreateEngineSettings
    from ..models.job_create_params import JobCreateParams
    from ..models.mlflow_export import MlflowExport
    from ..models.tensor_board_export import TensorBoardExport
    from ..models.wandb_export import WandbExport


T = TypeVar("T", bound="JobCreate")


@_attrs_define
class JobCreate:
    """
    Attributes:
        algorithm (Algorithm):
        dataset_paths (list[str]): Training data: .json, .jsonl, .parquet, .csv or .arrow files, folders of them, or
            registered datasets as 'dataset:<name or id>'.
        model_path (str): HF model directory (config.json + weights), or a job's output: 'job:<job>' (its final model),
            'job:<job>@<checkpoint>', or a registered model: 'model:<name>'.
        name (str):
        engine (str | Unset): trl, verl, or auto (verl where it can run the algorithm here). Default: 'trl'.
        engine_settings (JobCreateEngineSettings | Unset): Advanced: settings of the engine the job's params do not
            model, passed on as they are after the engine's own checks: TRL config fields ({"use_liger_kernel": true}), verl
            overrides ({"actor_rollout_ref.rollout.gpu_memory_utilization": 0.6}); what the platform sets itself is refused
            with the parameter to change instead. POST /jobs/preview shows the result; docs/jobs.md.
        eval_dataset_path (None | str | Unset):
        health (HealthSettings | Unset): A job's `health` field: detector overrides and automatic actions.
        params (JobCreateParams | Unset): Per-algorithm parameters; see /docs.
        run_mode (str | Unset): local, ray (PLATFORM_RAY_ADDRESS), or ssh:<host> for a host an admin added (GET /hosts).
            Default: 'local'.
        start (bool | Unset): Start the job right after creating it. Default: False.
        trackers (list[MlflowExport | TensorBoardExport | WandbExport] | None | Unset): Where its metrics are exported
            besides the platform: [{"kind": "tensorboard"}, {"kind": "mlflow", "tracking_uri": "http://host:5000",
            "experiment": "x"}, {"kind": "wandb", "project": "p"}]; none given: the platform's default (PLATFORM_TRACKERS);
            docs/trackers.md.
    """

    algorithm: Algorithm
    dataset_paths: list[str]
    model_path: str
    name: str
    engine: str | Unset = "trl"
    engine_settings: JobCreateEngineSettings | Unset = UNSET
    eval_dataset_path: None | str | Unset = UNSET
    health: HealthSettings | Unset = UNSET
    params: JobCreateParams | Unset = UNSET
    run_mode: str | Unset = "local"
    start: bool | Unset = False
    trackers: list[MlflowExport | TensorBoardExport | WandbExport] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.mlflow_export import MlflowExport  # noqa: PLC0415
        from ..models.tensor_board_export import TensorBoardExport  # noqa: PLC0415

        algorithm = self.algorithm.value

        dataset_paths = self.dataset_paths

        model_path = self.model_path

        name = self.name

        engine = self.engine

        engine_settings: dict[str, Any] | Unset = UNSET
        if not isinstance(self.engine_settings, Unset):
            engine_settings = self.engine_settings.to_dict()

        eval_dataset_path: None | str | Unset
        if isinstance(self.eval_dataset_path, Unset):
            eval_dataset_path = UNSET
        else:
            eval_dataset_path = self.eval_dataset_path

        health: dict[str, Any] | Unset = UNSET
        if not isinstance(self.health, Unset):
            health = self.health.to_dict()

        params: dict[str, Any] | Unset = UNSET
        if not isinstance(self.params, Unset):
            params = self.params.to_dict()

        run_mode = self.run_mode

        start = self.start

        trackers: list[dict[str, Any]] | None | Unset
        if isinstance(self.trackers, Unset):
            trackers = UNSET
        elif isinstance(self.trackers, list):
            trackers = []
            for trackers_type_0_item_data in self.trackers:
                trackers_type_0_item: dict[str, Any]
                if isinstance(trackers_type_0_item_data, TensorBoardExport):
                    trackers_type_0_item = trackers_type_0_item_data.to_dict()
                elif isinstance(trackers_type_0_item_data, MlflowExport):
                    trackers_type_0_item = trackers_type_0_item_data.to_dict()
                else:
                    trackers_type_0_item = trackers_type_0_item_data.to_dict()

                trackers.append(trackers_type_0_item)

        else:
            trackers = self.trackers

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "algorithm": algorithm,
                "dataset_paths": dataset_paths,
                "model_path": model_path,
                "name": name,
            }
        )
        if engine is not UNSET:
            field_dict["engine"] = engine
        if engine_settings is not UNSET:
            field_dict["engine_settings"] = engine_settings
        if eval_dataset_path is not UNSET:
            field_dict["eval_dataset_path"] = eval_dataset_path
        if health is not UNSET:
            field_dict["health"] = health
        if params is not UNSET:
            field_dict["params"] = params
        if run_mode is not UNSET:
            field_dict["run_mode"] = run_mode
        if start is not UNSET:
            field_dict["start"] = start
        if trackers is not UNSET:
            field_dict["trackers"] = trackers

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.health_settings import HealthSettings  # noqa: PLC0415
        from ..models.job_create_engine_settings import JobCreateEngineSettings  # noqa: PLC0415
        from ..models.job_create_params import JobCreateParams  # noqa: PLC0415
        from ..models.mlflow_export import MlflowExport  # noqa: PLC0415
        from ..models.tensor_board_export import TensorBoardExport  # noqa: PLC0415
        from ..models.wandb_export import WandbExport  # noqa: PLC0415

        d = dict(src_dict)
        algorithm = Algorithm(d.pop("algorithm"))

        dataset_paths = cast(list[str], d.pop("dataset_paths"))

        model_path = d.pop("model_path")

        name = d.pop("name")

        engine = d.pop("engine", UNSET)

        _engine_settings = d.pop("engine_settings", UNSET)
        engine_settings: JobCreateEngineSettings | Unset
        if isinstance(_engine_settings, Unset):
            engine_settings = UNSET
        else:
            engine_settings = JobCreateEngineSettings.from_dict(_engine_settings)

        def _parse_eval_dataset_path(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        eval_dataset_path = _parse_eval_dataset_path(d.pop("eval_dataset_path", UNSET))

        _health = d.pop("health", UNSET)
        health: HealthSettings | Unset
        if isinstance(_health, Unset):
            health = UNSET
        else:
            health = HealthSettings.from_dict(_health)

        _params = d.pop("params", UNSET)
        params: JobCreateParams | Unset
        if isinstance(_params, Unset):
            params = UNSET
        else:
            params = JobCreateParams.from_dict(_params)

        run_mode = d.pop("run_mode", UNSET)

        start = d.pop("start", UNSET)

        def _parse_trackers(data: object) -> list[MlflowExport | TensorBoardExport | WandbExport] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                trackers_type_0 = []
                _trackers_type_0 = data
                for trackers_type_0_item_data in _trackers_type_0:

                    def _parse_trackers_type_0_item(data: object) -> MlflowExport | TensorBoardExport | WandbExport:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            trackers_type_0_item_type_0 = TensorBoardExport.from_dict(data)

                            return trackers_type_0_item_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            trackers_type_0_item_type_1 = MlflowExport.from_dict(data)

                            return trackers_type_0_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        if not isinstance(data, dict):
                            raise TypeError()
                        trackers_type_0_item_type_2 = WandbExport.from_dict(data)

                        return trackers_type_0_item_type_2

                    trackers_type_0_item = _parse_trackers_type_0_item(trackers_type_0_item_data)

                    trackers_type_0.append(trackers_type_0_item)

                return trackers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[MlflowExport | TensorBoardExport | WandbExport] | None | Unset, data)

        trackers = _parse_trackers(d.pop("trackers", UNSET))

        job_create = cls(
            algorithm=algorithm,
            dataset_paths=dataset_paths,
            model_path=model_path,
            name=name,
            engine=engine,
            engine_settings=engine_settings,
            eval_dataset_path=eval_dataset_path,
            health=health,
            params=params,
            run_mode=run_mode,
            start=start,
            trackers=trackers,
        )

        return job_create
