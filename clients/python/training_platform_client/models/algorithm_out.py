from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.algorithm import Algorithm

if TYPE_CHECKING:
    from ..models.algorithm_out_params_schema import AlgorithmOutParamsSchema
    from ..models.chart_read import ChartRead


T = TypeVar("T", bound="AlgorithmOut")


@_attrs_define
class AlgorithmOut:
    """
    Attributes:
        charts (list[ChartRead]): The charts a job's page shows by default, once it has their metrics.
        dataset_kinds (list[str]): The dataset kinds whose rows it trains on, its own first.
        engines (list[str]):
        name (Algorithm):
        params_schema (AlgorithmOutParamsSchema):
        rl (bool): Samples responses to score (rollouts).
    """

    charts: list[ChartRead]
    dataset_kinds: list[str]
    engines: list[str]
    name: Algorithm
    params_schema: AlgorithmOutParamsSchema
    rl: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        charts = []
        for charts_item_data in self.charts:
            charts_item = charts_item_data.to_dict()
            charts.append(charts_item)

        dataset_kinds = self.dataset_kinds

        engines = self.engines

        name = self.name.value

        params_schema = self.params_schema.to_dict()

        rl = self.rl

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "charts": charts,
                "dataset_kinds": dataset_kinds,
                "engines": engines,
                "name": name,
                "params_schema": params_schema,
                "rl": rl,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.algorithm_out_params_schema import AlgorithmOutParamsSchema  # noqa: PLC0415
        from ..models.chart_read import ChartRead  # noqa: PLC0415

        d = dict(src_dict)
        charts = []
        _charts = d.pop("charts")
        for charts_item_data in _charts:
            charts_item = ChartRead.from_dict(charts_item_data)

            charts.append(charts_item)

        dataset_kinds = cast(list[str], d.pop("dataset_kinds"))

        engines = cast(list[str], d.pop("engines"))

        name = Algorithm(d.pop("name"))

        params_schema = AlgorithmOutParamsSchema.from_dict(d.pop("params_schema"))

        rl = d.pop("rl")

        algorithm_out = cls(
            charts=charts,
            dataset_kinds=dataset_kinds,
            engines=engines,
            name=name,
            params_schema=params_schema,
            rl=rl,
        )

        algorithm_out.additional_properties = d
        return algorithm_out

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
