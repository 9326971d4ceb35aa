from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TokenCreate")


@_attrs_define
class TokenCreate:
    """
    Attributes:
        name (str): What the token is for, e.g. 'ci' or 'laptop'.
        expires_days (float | None | Unset): Days until it expires; never if empty.
        user (None | str | Unset): Whose token (admins only); the caller's if empty.
    """

    name: str
    expires_days: float | None | Unset = UNSET
    user: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        expires_days: float | None | Unset
        if isinstance(self.expires_days, Unset):
            expires_days = UNSET
        else:
            expires_days = self.expires_days

        user: None | str | Unset
        if isinstance(self.user, Unset):
            user = UNSET
        else:
            user = self.user

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if expires_days is not UNSET:
            field_dict["expires_days"] = expires_days
        if user is not UNSET:
            field_dict["user"] = user

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        def _parse_expires_days(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        expires_days = _parse_expires_days(d.pop("expires_days", UNSET))

        def _parse_user(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user = _parse_user(d.pop("user", UNSET))

        token_create = cls(
            name=name,
            expires_days=expires_days,
            user=user,
        )

        return token_create
