from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.algorithm import Algorithm
from ..models.job_read_algorithm_type_2 import JobReadAlgorithmType2
from ..models.job_read_health import JobReadHealth
from ..models.job_status import JobStatus
from ..models.surgery_operation import SurgeryOperation

if TYPE_CHECKING:
    from ..models.health_settings import HealthSettings
    from ..models.job_failure import JobFailure
    from ..models.job_read_dataset_formats import JobReadDatasetFormats
    from ..models.job_read_engine_settings import JobReadEngineSettings
    from ..models.job_read_params import JobReadParams
    from ..models.mlflow_export import MlflowExport
    from ..models.progress import Progress
    from ..models.tensor_board_export import TensorBoardExport
    from ..models.wandb_export import WandbExport


T = TypeVar("T", bound="JobRead")


@_attrs_define
class JobRead:
    """
    Attributes:
        algorithm (Algorithm | JobReadAlgorithmType2 | SurgeryOperation):
        allowed_actions (list[str]):
        attempt (int):
        attempt_elapsed_seconds (float | None): The running attempt's share of `elapsed_seconds`.
        created_at (datetime.datetime):
        dataset_formats (JobReadDatasetFormats):
        dataset_paths (list[str]):
        elapsed_seconds (float | None): The time its attempts ran, each from its process's launch, the running one's so
            far included.
        engine (str):
        engine_settings (JobReadEngineSettings): Its engine settings (JobCreate.engine_settings).
        error (None | str):
        eval_dataset_path (None | str):
        exit_code (int | None):
        failure (JobFailure | None): Why it failed, while it is failed.
        finished_at (datetime.datetime | None):
        gpus (list[int]): The GPUs (CUDA indices) the job holds while it runs locally.
        health (JobReadHealth): The worst open finding's severity: warning or critical; healthy when there is none (or
            only info); unknown while the job has logged no step (pending, queued, failed before its first step).
        health_settings (HealthSettings): A job's `health` field: detector overrides and automatic actions.
        id (str):
        model_path (str):
        name (str):
        output_dir (str):
        params (JobReadParams):
        pid (int | None):
        progress (None | Progress):
        queue_position (int | None): While queued: 1 for the job that gets the next free GPUs.
        requested_action (None | str):
        run_mode (str):
        started_at (datetime.datetime | None):
        status (JobStatus):
        trackers (list[MlflowExport | TensorBoardExport | WandbExport] | None): Its trackers; null: the platform's
            default (docs/trackers.md).
        updated_at (datetime.datetime):
    """

    algorithm: Algorithm | JobReadAlgorithmType2 | SurgeryOperation
    allowed_actions: list[str]
    attempt: int
    attempt_elapsed_seconds: float | None
    created_at: datetime.datetime
    dataset_formats: JobReadDatasetFormats
    dataset_paths: list[str]
    elapsed_seconds: float | None
    engine: str
    engine_settings: JobReadEngineSettings
    error: None | str
    eval_dataset_path: None | str
    exit_code: int | None
    failure: JobFailure | None
    finished_at: datetime.datetime | None
    gpus: list[int]
    health: JobReadHealth
    health_settings: HealthSettings
    id: str
    model_path: str
    name: str
    output_dir: str
    params: JobReadParams
    pid: int | None
    progress: None | Progress
    queue_position: int | None
    requested_action: None | str
    run_mode: str
    started_at: datetime.datetime | None
    status: JobStatus
    trackers: list[MlflowExport | TensorBoardExport | WandbExport] | None
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.job_failure import JobFailure  # noqa: PLC0415
        from ..models.mlflow_export import MlflowExport  # noqa: PLC0415
        from ..models.progress import Progress  # noqa: PLC0415
        from ..models.tensor_board_export import TensorBoardExport  # noqa: PLC0415

        algorithm: str
        if isinstance(self.algorithm, Algorithm):
            algorithm = self.algorithm.value
        elif isinstance(self.algorithm, SurgeryOperation):
            algorithm = self.algorithm.value
        else:
            algorithm = self.algorithm.value

        allowed_actions = self.allowed_actions

        attempt = self.attempt

        attempt_elapsed_seconds: float | None
        attempt_elapsed_seconds = self.attempt_elapsed_seconds

        created_at = self.created_at.isoformat()

        dataset_formats = self.dataset_formats.to_dict()

        dataset_paths = self.dataset_paths

        elapsed_seconds: float | None
        elapsed_seconds = self.elapsed_seconds

        engine = self.engine

        engine_settings = self.engine_settings.to_dict()

        error: None | str
        error = self.error

        eval_dataset_path: None | str
        eval_dataset_path = self.eval_dataset_path

        exit_code: int | None
        exit_code = self.exit_code

        failure: dict[str, Any] | None
        if isinstance(self.failure, JobFailure):
            failure = self.failure.to_dict()
        else:
            failure = self.failure

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        gpus = self.gpus

        health = self.health.value

        health_settings = self.health_settings.to_dict()

        id = self.id

        model_path = self.model_path

        name = self.name

        output_dir = self.output_dir

        params = self.params.to_dict()

        pid: int | None
        pid = self.pid

        progress: dict[str, Any] | None
        if isinstance(self.progress, Progress):
            progress = self.progress.to_dict()
        else:
            progress = self.progress

        queue_position: int | None
        queue_position = self.queue_position

        requested_action: None | str
        requested_action = self.requested_action

        run_mode = self.run_mode

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        status = self.status.value

        trackers: list[dict[str, Any]] | None
        if isinstance(self.trackers, list):
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

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "algorithm": algorithm,
                "allowed_actions": allowed_actions,
                "attempt": attempt,
                "attempt_elapsed_seconds": attempt_elapsed_seconds,
                "created_at": created_at,
                "dataset_formats": dataset_formats,
                "dataset_paths": dataset_paths,
                "elapsed_seconds": elapsed_seconds,
                "engine": engine,
                "engine_settings": engine_settings,
                "error": error,
                "eval_dataset_path": eval_dataset_path,
                "exit_code": exit_code,
                "failure": failure,
                "finished_at": finished_at,
                "gpus": gpus,
                "health": health,
                "health_settings": health_settings,
                "id": id,
                "model_path": model_path,
                "name": name,
                "output_dir": output_dir,
                "params": params,
                "pid": pid,
                "progress": progress,
                "queue_position": queue_position,
                "requested_action": requested_action,
                "run_mode": run_mode,
                "started_at": started_at,
                "status": status,
                "trackers": trackers,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.health_settings import HealthSettings  # noqa: PLC0415
        from ..models.job_failure import JobFailure  # noqa: PLC0415
        from ..models.job_read_dataset_formats import JobReadDatasetFormats  # noqa: PLC0415
        from ..models.job_read_engine_settings import JobReadEngineSettings  # noqa: PLC0415
        from ..models.job_read_params import JobReadParams  # noqa: PLC0415
        from ..models.mlflow_export import MlflowExport  # noqa: PLC0415
        from ..models.progress import Progress  # noqa: PLC0415
        from ..models.tensor_board_export import TensorBoardExport  # noqa: PLC0415
        from ..models.wandb_export import WandbExport  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_algorithm(data: object) -> Algorithm | JobReadAlgorithmType2 | SurgeryOperation:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                algorithm_type_0 = Algorithm(data)

                return algorithm_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                algorithm_type_1 = SurgeryOperation(data)

                return algorithm_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            algorithm_type_2 = JobReadAlgorithmType2(data)

            return algorithm_type_2

        algorithm = _parse_algorithm(d.pop("algorithm"))

        allowed_actions = cast(list[str], d.pop("allowed_actions"))

        attempt = d.pop("attempt")

        def _parse_attempt_elapsed_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        attempt_elapsed_seconds = _parse_attempt_elapsed_seconds(d.pop("attempt_elapsed_seconds"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        dataset_formats = JobReadDatasetFormats.from_dict(d.pop("dataset_formats"))

        dataset_paths = cast(list[str], d.pop("dataset_paths"))

        def _parse_elapsed_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        elapsed_seconds = _parse_elapsed_seconds(d.pop("elapsed_seconds"))

        engine = d.pop("engine")

        engine_settings = JobReadEngineSettings.from_dict(d.pop("engine_settings"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        def _parse_eval_dataset_path(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        eval_dataset_path = _parse_eval_dataset_path(d.pop("eval_dataset_path"))

        def _parse_exit_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        exit_code = _parse_exit_code(d.pop("exit_code"))

        def _parse_failure(data: object) -> JobFailure | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                failure_type_0 = JobFailure.from_dict(data)

                return failure_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobFailure | None, data)

        failure = _parse_failure(d.pop("failure"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        gpus = cast(list[int], d.pop("gpus"))

        health = JobReadHealth(d.pop("health"))

        health_settings = HealthSettings.from_dict(d.pop("health_settings"))

        id = d.pop("id")

        model_path = d.pop("model_path")

        name = d.pop("name")

        output_dir = d.pop("output_dir")

        params = JobReadParams.from_dict(d.pop("params"))

        def _parse_pid(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        pid = _parse_pid(d.pop("pid"))

        def _parse_progress(data: object) -> None | Progress:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                progress_type_0 = Progress.from_dict(data)

                return progress_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Progress, data)

        progress = _parse_progress(d.pop("progress"))

        def _parse_queue_position(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        queue_position = _parse_queue_position(d.pop("queue_position"))

        def _parse_requested_action(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        requested_action = _parse_requested_action(d.pop("requested_action"))

        run_mode = d.pop("run_mode")

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))

        status = JobStatus(d.pop("status"))

        def _parse_trackers(data: object) -> list[MlflowExport | TensorBoardExport | WandbExport] | None:
            if data is None:
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
            return cast(list[MlflowExport | TensorBoardExport | WandbExport] | None, data)

        trackers = _parse_trackers(d.pop("trackers"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        job_read = cls(
            algorithm=algorithm,
            allowed_actions=allowed_actions,
            attempt=attempt,
            attempt_elapsed_seconds=attempt_elapsed_seconds,
            created_at=created_at,
            dataset_formats=dataset_formats,
            dataset_paths=dataset_paths,
            elapsed_seconds=elapsed_seconds,
            engine=engine,
            engine_settings=engine_settings,
            error=error,
            eval_dataset_path=eval_dataset_path,
            exit_code=exit_code,
            failure=failure,
            finished_at=finished_at,
            gpus=gpus,
            health=health,
            health_settings=health_settings,
            id=id,
            model_path=model_path,
            name=name,
            output_dir=output_dir,
            params=params,
            pid=pid,
            progress=progress,
            queue_position=queue_position,
            requested_action=requested_action,
            run_mode=run_mode,
            started_at=started_at,
            status=status,
            trackers=trackers,
            updated_at=updated_at,
        )

        job_read.additional_properties = d
        return job_read

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
