from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ChatGeneration")


@_attrs_define
class ChatGeneration:
    """
    Attributes:
        chat_template (bool | Unset): Send prompts as chat messages (the model's template). Default: True.
        max_new_tokens (int | Unset):  Default: 256.
        n (int | Unset): One answer: the playground streams it. Default: 1.
        seed (int | Unset):  Default: 0.
        stop (list[str] | Unset):
        temperature (float | Unset): 0: greedy, the same answer every time. Default: 0.0.
        top_p (float | Unset):  Default: 1.0.
    """

    chat_template: bool | Unset = True
    max_new_tokens: int | Unset = 256
    n: int | Unset = 1
    seed: int | Unset = 0
    stop: list[str] | Unset = UNSET
    temperature: float | Unset = 0.0
    top_p: float | Unset = 1.0

    def to_dict(self) -> dict[str, Any]:
        chat_template = self.chat_template

        max_new_tokens = self.max_new_tokens

        n = self.n

        seed = self.seed

        stop: list[str] | Unset = UNSET
        if not isinstance(self.stop, Unset):
            stop = self.stop

        temperature = self.temperature

        top_p = self.top_p

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if chat_template is not UNSET:
            field_dict["chat_template"] = chat_template
        if max_new_tokens is not UNSET:
            field_dict["max_new_tokens"] = max_new_tokens
        if n is not UNSET:
            field_dict["n"] = n
        if seed is not UNSET:
            field_dict["seed"] = seed
        if stop is not UNSET:
            field_dict["stop"] = stop
        if temperature is not UNSET:
            field_dict["temperature"] = temperature
        if top_p is not UNSET:
            field_dict["top_p"] = top_p

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chat_template = d.pop("chat_template", UNSET)

        max_new_tokens = d.pop("max_new_tokens", UNSET)

        n = d.pop("n", UNSET)

        seed = d.pop("seed", UNSET)

        stop = cast(list[str], d.pop("stop", UNSET))

        temperature = d.pop("temperature", UNSET)

        top_p = d.pop("top_p", UNSET)

        chat_generation = cls(
            chat_template=chat_template,
            max_new_tokens=max_new_tokens,
            n=n,
            seed=seed,
            stop=stop,
            temperature=temperature,
            top_p=top_p,
        )

        return chat_generation
