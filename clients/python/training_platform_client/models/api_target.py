from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ApiTarget")


@_attrs_define
class ApiTarget:
    """An OpenAI-compatible server: `/v1/chat/completions` (chat template on) or `/v1/completions` (off).

    Attributes:
        base_url (str): Up to and including /v1.
        model (str): The model name the server serves.
        api_key_secret (None | str | Unset): The name of the secret (POST /secrets) holding the API key.
        concurrency (int | Unset): Requests in flight at once. Default: 8.
        kind (Literal['api'] | Unset):  Default: 'api'.
        max_retries (int | Unset): On 429, 5xx and dropped connections, with backoff. Default: 4.
        requests_per_second (float | None | Unset): At most this many starts.
        timeout_seconds (float | Unset):  Default: 120.0.
    """

    base_url: str
    model: str
    api_key_secret: None | str | Unset = UNSET
    concurrency: int | Unset = 8
    kind: Literal["api"] | Unset = "api"
    max_retries: int | Unset = 4
    requests_per_second: float | None | Unset = UNSET
    timeout_seconds: float | Unset = 120.0

    def to_dict(self) -> dict[str, Any]:
        base_url = self.base_url

        model = self.model

        api_key_secret: None | str | Unset
        if isinstance(self.api_key_secret, Unset):
            api_key_secret = UNSET
        else:
            api_key_secret = self.api_key_secret

        concurrency = self.concurrency

        kind = self.kind

        max_retries = self.max_retries

        requests_per_second: float | None | Unset
        if isinstance(self.requests_per_second, Unset):
            requests_per_second = UNSET
        else:
            requests_per_second = self.requests_per_second

        timeout_seconds = self.timeout_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "base_url": base_url,
                "model": model,
            }
        )
        if api_key_secret is not UNSET:
            field_dict["api_key_secret"] = api_key_secret
        if concurrency is not UNSET:
            field_dict["concurrency"] = concurrency
        if kind is not UNSET:
            field_dict["kind"] = kind
        if max_retries is not UNSET:
            field_dict["max_retries"] = max_retries
        if requests_per_second is not UNSET:
            field_dict["requests_per_second"] = requests_per_second
        if timeout_seconds is not UNSET:
            field_dict["timeout_seconds"] = timeout_seconds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        base_url = d.pop("base_url")

        model = d.pop("model")

        def _parse_api_key_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        api_key_secret = _parse_api_key_secret(d.pop("api_key_secret", UNSET))

        concurrency = d.pop("concurrency", UNSET)

        kind = cast(Literal["api"] | Unset, d.pop("kind", UNSET))
        if kind != "api" and not isinstance(kind, Unset):
            raise ValueError(f"kind must match const 'api', got '{kind}'")

        max_retries = d.pop("max_retries", UNSET)

        def _parse_requests_per_second(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        requests_per_second = _parse_requests_per_second(d.pop("requests_per_second", UNSET))

        timeout_seconds = d.pop("timeout_seconds", UNSET)

        api_target = cls(
            base_url=base_url,
            model=model,
            api_key_secret=api_key_secret,
            concurrency=concurrency,
            kind=kind,
            max_retries=max_retries,
            requests_per_second=requests_per_second,
            timeout_seconds=timeout_seconds,
        )

        return api_target
