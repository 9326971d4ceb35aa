from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MlflowExport")


@_attrs_define
class MlflowExport:
    """A run on an MLflow tracking server, through its REST API.

    Attributes:
        tracking_uri (str): The tracking server's http(s) URL.
        experiment (str | Unset): Made when the server has none of it. Default: 'training-platform'.
        kind (Literal['mlflow'] | Unset):  Default: 'mlflow'.
        token_secret (None | str | Unset): A secret (POST /secrets) holding a bearer token the server asks for.
    """

    tracking_uri: str
    experiment: str | Unset = "training-platform"
    kind: Literal["mlflow"] | Unset = "mlflow"
    token_secret: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        tracking_uri = self.tracking_uri

        experiment = self.experiment

        kind = self.kind

        token_secret: None | str | Unset
        if isinstance(self.token_secret, Unset):
            token_secret = UNSET
        else:
            token_secret = self.token_secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "tracking_uri": tracking_uri,
            }
        )
        if experiment is not UNSET:
            field_dict["experiment"] = experiment
        if kind is not UNSET:
            field_dict["kind"] = kind
        if token_secret is not UNSET:
            field_dict["token_secret"] = token_secret

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tracking_uri = d.pop("tracking_uri")

        experiment = d.pop("experiment", UNSET)

        kind = cast(Literal["mlflow"] | Unset, d.pop("kind", UNSET))
        if kind != "mlflow" and not isinstance(kind, Unset):
            raise ValueError(f"kind must match const 'mlflow', got '{kind}'")

        def _parse_token_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        token_secret = _parse_token_secret(d.pop("token_secret", UNSET))

        mlflow_export = cls(
            tracking_uri=tracking_uri,
            experiment=experiment,
            kind=kind,
            token_secret=token_secret,
        )

        return mlflow_export
