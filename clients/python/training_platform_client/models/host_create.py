from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.host_create_environment import HostCreateEnvironment


T = TypeVar("T", bound="HostCreate")


@_attrs_define
class HostCreate:
    """
    Attributes:
        host (str):
        name (str): How jobs name the host: run mode ssh:<name>.
        username (str):
        work_dir (str): Where the platform's files go on the host (an absolute path).
        environment (HostCreateEnvironment | Unset): Variables every run there gets (not secrets).
        passphrase (None | str | Unset): The private key's passphrase; kept encrypted.
        password (None | str | Unset): Kept encrypted; no answer ever includes it.
        port (int | Unset):  Default: 22.
        private_key (None | str | Unset): OpenSSH or PEM text; kept encrypted.
        python (str | Unset): The interpreter that has the platform's package. Default: '/usr/bin/python3'.
    """

    host: str
    name: str
    username: str
    work_dir: str
    environment: HostCreateEnvironment | Unset = UNSET
    passphrase: None | str | Unset = UNSET
    password: None | str | Unset = UNSET
    port: int | Unset = 22
    private_key: None | str | Unset = UNSET
    python: str | Unset = "/usr/bin/python3"

    def to_dict(self) -> dict[str, Any]:
        host = self.host

        name = self.name

        username = self.username

        work_dir = self.work_dir

        environment: dict[str, Any] | Unset = UNSET
        if not isinstance(self.environment, Unset):
            environment = self.environment.to_dict()

        passphrase: None | str | Unset
        if isinstance(self.passphrase, Unset):
            passphrase = UNSET
        else:
            passphrase = self.passphrase

        password: None | str | Unset
        if isinstance(self.password, Unset):
            password = UNSET
        else:
            password = self.password

        port = self.port

        private_key: None | str | Unset
        if isinstance(self.private_key, Unset):
            private_key = UNSET
        else:
            private_key = self.private_key

        python = self.python

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "host": host,
                "name": name,
                "username": username,
                "work_dir": work_dir,
            }
        )
        if environment is not UNSET:
            field_dict["environment"] = environment
        if passphrase is not UNSET:
            field_dict["passphrase"] = passphrase
        if password is not UNSET:
            field_dict["password"] = password
        if port is not UNSET:
            field_dict["port"] = port
        if private_key is not UNSET:
            field_dict["private_key"] = private_key
        if python is not UNSET:
            field_dict["python"] = python

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.host_create_environment import HostCreateEnvironment  # noqa: PLC0415

        d = dict(src_dict)
        host = d.pop("host")

        name = d.pop("name")

        username = d.pop("username")

        work_dir = d.pop("work_dir")

        _environment = d.pop("environment", UNSET)
        environment: HostCreateEnvironment | Unset
        if isinstance(_environment, Unset):
            environment = UNSET
        else:
            environment = HostCreateEnvironment.from_dict(_environment)

        def _parse_passphrase(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        passphrase = _parse_passphrase(d.pop("passphrase", UNSET))

        def _parse_password(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        password = _parse_password(d.pop("password", UNSET))

        port = d.pop("port", UNSET)

        def _parse_private_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        private_key = _parse_private_key(d.pop("private_key", UNSET))

        python = d.pop("python", UNSET)

        host_create = cls(
            host=host,
            name=name,
            username=username,
            work_dir=work_dir,
            environment=environment,
            passphrase=passphrase,
            password=password,
            port=port,
            private_key=private_key,
            python=python,
        )

        return host_create
