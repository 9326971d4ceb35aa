from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.merge_request_dtype_type_0 import MergeRequestDtypeType0
from ..models.merge_request_method_type_0 import MergeRequestMethodType0
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.merge_model_request import MergeModelRequest
    from ..models.merge_request_parameters import MergeRequestParameters


T = TypeVar("T", bound="MergeRequest")


@_attrs_define
class MergeRequest:
    """A merge as the API's JSON, or as mergekit's own YAML (`recipe`), not both.

    Attributes:
        name (str): The run's job name; its result is registered as a model of this name.
        base_model (None | str | Unset):
        dtype (MergeRequestDtypeType0 | None | Unset): The dtype the weights are combined and written in; unset: the
            base model's (or the first's).
        method (MergeRequestMethodType0 | None | Unset):
        models (list[MergeModelRequest] | None | Unset):
        num_gpus (int | Unset): 0: on the CPU; 1: the arithmetic on one GPU. Default: 0.
        parameters (MergeRequestParameters | Unset): The method's global parameters.
        random_seed (int | Unset): For DARE's random drops. Default: 0.
        recipe (None | str | Unset): A mergekit YAML recipe, run as mergekit would run it.
        run_mode (str | Unset): local, ray (PLATFORM_RAY_ADDRESS), or ssh:<host> for a host an admin added (GET /hosts).
            Default: 'local'.
        start (bool | Unset): Start the run now (it queues behind others for a GPU). Default: True.
    """

    name: str
    base_model: None | str | Unset = UNSET
    dtype: MergeRequestDtypeType0 | None | Unset = UNSET
    method: MergeRequestMethodType0 | None | Unset = UNSET
    models: list[MergeModelRequest] | None | Unset = UNSET
    num_gpus: int | Unset = 0
    parameters: MergeRequestParameters | Unset = UNSET
    random_seed: int | Unset = 0
    recipe: None | str | Unset = UNSET
    run_mode: str | Unset = "local"
    start: bool | Unset = True

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        base_model: None | str | Unset
        if isinstance(self.base_model, Unset):
            base_model = UNSET
        else:
            base_model = self.base_model

        dtype: None | str | Unset
        if isinstance(self.dtype, Unset):
            dtype = UNSET
        elif isinstance(self.dtype, MergeRequestDtypeType0):
            dtype = self.dtype.value
        else:
            dtype = self.dtype

        method: None | str | Unset
        if isinstance(self.method, Unset):
            method = UNSET
        elif isinstance(self.method, MergeRequestMethodType0):
            method = self.method.value
        else:
            method = self.method

        models: list[dict[str, Any]] | None | Unset
        if isinstance(self.models, Unset):
            models = UNSET
        elif isinstance(self.models, list):
            models = []
            for models_type_0_item_data in self.models:
                models_type_0_item = models_type_0_item_data.to_dict()
                models.append(models_type_0_item)

        else:
            models = self.models

        num_gpus = self.num_gpus

        parameters: dict[str, Any] | Unset = UNSET
        if not isinstance(self.parameters, Unset):
            parameters = self.parameters.to_dict()

        random_seed = self.random_seed

        recipe: None | str | Unset
        if isinstance(self.recipe, Unset):
            recipe = UNSET
        else:
            recipe = self.recipe

        run_mode = self.run_mode

        start = self.start

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if base_model is not UNSET:
            field_dict["base_model"] = base_model
        if dtype is not UNSET:
            field_dict["dtype"] = dtype
        if method is not UNSET:
            field_dict["method"] = method
        if models is not UNSET:
            field_dict["models"] = models
        if num_gpus is not UNSET:
            field_dict["num_gpus"] = num_gpus
        if parameters is not UNSET:
            field_dict["parameters"] = parameters
        if random_seed is not UNSET:
            field_dict["random_seed"] = random_seed
        if recipe is not UNSET:
            field_dict["recipe"] = recipe
        if run_mode is not UNSET:
            field_dict["run_mode"] = run_mode
        if start is not UNSET:
            field_dict["start"] = start

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.merge_model_request import MergeModelRequest  # noqa: PLC0415
        from ..models.merge_request_parameters import MergeRequestParameters  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        def _parse_base_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        base_model = _parse_base_model(d.pop("base_model", UNSET))

        def _parse_dtype(data: object) -> MergeRequestDtypeType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                dtype_type_0 = MergeRequestDtypeType0(data)

                return dtype_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MergeRequestDtypeType0 | None | Unset, data)

        dtype = _parse_dtype(d.pop("dtype", UNSET))

        def _parse_method(data: object) -> MergeRequestMethodType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                method_type_0 = MergeRequestMethodType0(data)

                return method_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MergeRequestMethodType0 | None | Unset, data)

        method = _parse_method(d.pop("method", UNSET))

        def _parse_models(data: object) -> list[MergeModelRequest] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                models_type_0 = []
                _models_type_0 = data
                for models_type_0_item_data in _models_type_0:
                    models_type_0_item = MergeModelRequest.from_dict(models_type_0_item_data)

                    models_type_0.append(models_type_0_item)

                return models_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[MergeModelRequest] | None | Unset, data)

        models = _parse_models(d.pop("models", UNSET))

        num_gpus = d.pop("num_gpus", UNSET)

        _parameters = d.pop("parameters", UNSET)
        parameters: MergeRequestParameters | Unset
        if isinstance(_parameters, Unset):
            parameters = UNSET
        else:
            parameters = MergeRequestParameters.from_dict(_parameters)

        random_seed = d.pop("random_seed", UNSET)

        def _parse_recipe(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        recipe = _parse_recipe(d.pop("recipe", UNSET))

        run_mode = d.pop("run_mode", UNSET)

        start = d.pop("start", UNSET)

        merge_request = cls(
            name=name,
            base_model=base_model,
            dtype=dtype,
            method=method,
            models=models,
            num_gpus=num_gpus,
            parameters=parameters,
            random_seed=random_seed,
            recipe=recipe,
            run_mode=run_mode,
            start=start,
        )

        return merge_request
