from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.completion_sample_rewards import CompletionSampleRewards


T = TypeVar("T", bound="CompletionSample")


@_attrs_define
class CompletionSample:
    """
    Attributes:
        completion (str):
        index (int): Its place among the step's samples.
        prompt (str):
        reward (float | None): The rewards' weighted sum, as the trainer rewarded the completion.
        rewards (CompletionSampleRewards): Each reward's score by its metric name, unweighted.
        step (int):
    """

    completion: str
    index: int
    prompt: str
    reward: float | None
    rewards: CompletionSampleRewards
    step: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        completion = self.completion

        index = self.index

        prompt = self.prompt

        reward: float | None
        reward = self.reward

        rewards = self.rewards.to_dict()

        step = self.step

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "completion": completion,
                "index": index,
                "prompt": prompt,
                "reward": reward,
                "rewards": rewards,
                "step": step,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.completion_sample_rewards import CompletionSampleRewards  # noqa: PLC0415

        d = dict(src_dict)
        completion = d.pop("completion")

        index = d.pop("index")

        prompt = d.pop("prompt")

        def _parse_reward(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        reward = _parse_reward(d.pop("reward"))

        rewards = CompletionSampleRewards.from_dict(d.pop("rewards"))

        step = d.pop("step")

        completion_sample = cls(
            completion=completion,
            index=index,
            prompt=prompt,
            reward=reward,
            rewards=rewards,
            step=step,
        )

        completion_sample.additional_properties = d
        return completion_sample

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
