from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.api_target import ApiTarget
    from ..models.chat_generation import ChatGeneration
    from ..models.chat_message import ChatMessage
    from ..models.model_target_request import ModelTargetRequest


T = TypeVar("T", bound="ChatRequest")


@_attrs_define
class ChatRequest:
    """
    Attributes:
        messages (list[ChatMessage]): The conversation so far.
        target (ApiTarget | ModelTargetRequest):
        generation (ChatGeneration | Unset):
    """

    messages: list[ChatMessage]
    target: ApiTarget | ModelTargetRequest
    generation: ChatGeneration | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.model_target_request import ModelTargetRequest  # noqa: PLC0415

        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)

        target: dict[str, Any]
        if isinstance(self.target, ModelTargetRequest):
            target = self.target.to_dict()
        else:
            target = self.target.to_dict()

        generation: dict[str, Any] | Unset = UNSET
        if not isinstance(self.generation, Unset):
            generation = self.generation.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "messages": messages,
                "target": target,
            }
        )
        if generation is not UNSET:
            field_dict["generation"] = generation

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.api_target import ApiTarget  # noqa: PLC0415
        from ..models.chat_generation import ChatGeneration  # noqa: PLC0415
        from ..models.chat_message import ChatMessage  # noqa: PLC0415
        from ..models.model_target_request import ModelTargetRequest  # noqa: PLC0415

        d = dict(src_dict)
        messages = []
        _messages = d.pop("messages")
        for messages_item_data in _messages:
            messages_item = ChatMessage.from_dict(messages_item_data)

            messages.append(messages_item)

        def _parse_target(data: object) -> ApiTarget | ModelTargetRequest:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                target_type_0 = ModelTargetRequest.from_dict(data)

                return target_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            target_type_1 = ApiTarget.from_dict(data)

            return target_type_1

        target = _parse_target(d.pop("target"))

        _generation = d.pop("generation", UNSET)
        generation: ChatGeneration | Unset
        if isinstance(_generation, Unset):
            generation = UNSET
        else:
            generation = ChatGeneration.from_dict(_generation)

        chat_request = cls(
            messages=messages,
            target=target,
            generation=generation,
        )

        return chat_request
