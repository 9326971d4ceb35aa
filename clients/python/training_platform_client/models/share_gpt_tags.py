from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ShareGptTags")


@_attrs_define
class ShareGptTags:
    """LLaMA-Factory's `tags` of a sharegpt dataset: the keys of a turn and the role each tag stands for.

    Attributes:
        assistant_tag (str | Unset):  Default: 'gpt'.
        content_tag (str | Unset):  Default: 'value'.
        function_tag (str | Unset):  Default: 'function_call'.
        observation_tag (str | Unset):  Default: 'observation'.
        role_tag (str | Unset):  Default: 'from'.
        system_tag (str | Unset):  Default: 'system'.
        user_tag (str | Unset):  Default: 'human'.
    """

    assistant_tag: str | Unset = "gpt"
    content_tag: str | Unset = "value"
    function_tag: str | Unset = "function_call"
    observation_tag: str | Unset = "observation"
    role_tag: str | Unset = "from"
    system_tag: str | Unset = "system"
    user_tag: str | Unset = "human"

    def to_dict(self) -> dict[str, Any]:
        assistant_tag = self.assistant_tag

        content_tag = self.content_tag

        function_tag = self.function_tag

        observation_tag = self.observation_tag

        role_tag = self.role_tag

        system_tag = self.system_tag

        user_tag = self.user_tag

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if assistant_tag is not UNSET:
            field_dict["assistant_tag"] = assistant_tag
        if content_tag is not UNSET:
            field_dict["content_tag"] = content_tag
        if function_tag is not UNSET:
            field_dict["function_tag"] = function_tag
        if observation_tag is not UNSET:
            field_dict["observation_tag"] = observation_tag
        if role_tag is not UNSET:
            field_dict["role_tag"] = role_tag
        if system_tag is not UNSET:
            field_dict["system_tag"] = system_tag
        if user_tag is not UNSET:
            field_dict["user_tag"] = user_tag

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        assistant_tag = d.pop("assistant_tag", UNSET)

        content_tag = d.pop("content_tag", UNSET)

        function_tag = d.pop("function_tag", UNSET)

        observation_tag = d.pop("observation_tag", UNSET)

        role_tag = d.pop("role_tag", UNSET)

        system_tag = d.pop("system_tag", UNSET)

        user_tag = d.pop("user_tag", UNSET)

        share_gpt_tags = cls(
            assistant_tag=assistant_tag,
            content_tag=content_tag,
            function_tag=function_tag,
            observation_tag=observation_tag,
            role_tag=role_tag,
            system_tag=system_tag,
            user_tag=user_tag,
        )

        return share_gpt_tags
