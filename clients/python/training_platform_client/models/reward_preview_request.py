from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.reward_preview_request_algorithm import RewardPreviewRequestAlgorithm
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.reward_spec import RewardSpec


T = TypeVar("T", bound="RewardPreviewRequest")


@_attrs_define
class RewardPreviewRequest:
    """
    Attributes:
        dataset (str): As an entry of the job's dataset_paths: 'dataset:<name>' or a path.
        rewards (list[RewardSpec]): As the job's params.rewards.
        algorithm (RewardPreviewRequestAlgorithm | Unset):  Default: RewardPreviewRequestAlgorithm.GRPO.
        rows (int | Unset): How many of the dataset's first rows. Default: 8.
    """

    dataset: str
    rewards: list[RewardSpec]
    algorithm: RewardPreviewRequestAlgorithm | Unset = RewardPreviewRequestAlgorithm.GRPO
    rows: int | Unset = 8

    def to_dict(self) -> dict[str, Any]:
        dataset = self.dataset

        rewards = []
        for rewards_item_data in self.rewards:
            rewards_item = rewards_item_data.to_dict()
            rewards.append(rewards_item)

        algorithm: str | Unset = UNSET
        if not isinstance(self.algorithm, Unset):
            algorithm = self.algorithm.value

        rows = self.rows

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "dataset": dataset,
                "rewards": rewards,
            }
        )
        if algorithm is not UNSET:
            field_dict["algorithm"] = algorithm
        if rows is not UNSET:
            field_dict["rows"] = rows

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.reward_spec import RewardSpec  # noqa: PLC0415

        d = dict(src_dict)
        dataset = d.pop("dataset")

        rewards = []
        _rewards = d.pop("rewards")
        for rewards_item_data in _rewards:
            rewards_item = RewardSpec.from_dict(rewards_item_data)

            rewards.append(rewards_item)

        _algorithm = d.pop("algorithm", UNSET)
        algorithm: RewardPreviewRequestAlgorithm | Unset
        if isinstance(_algorithm, Unset):
            algorithm = UNSET
        else:
            algorithm = RewardPreviewRequestAlgorithm(_algorithm)

        rows = d.pop("rows", UNSET)

        reward_preview_request = cls(
            dataset=dataset,
            rewards=rewards,
            algorithm=algorithm,
            rows=rows,
        )

        return reward_preview_request
