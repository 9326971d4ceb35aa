"""The secrets store: a named value (an API key) encrypted with PLATFORM_SECRET_KEY (Fernet: AES-128-CBC with an
HMAC-SHA256), given back in clear only to the platform itself (`reveal`, `environment_for`: a run's process gets it
in an environment variable), never in an answer, a log line or an error.

The price: without the key nothing can be stored or used, and a new key makes every stored secret unreadable until
it is stored again (the database alone never gives a value away, a lost key neither).
"""

import uuid

from cryptography.fernet import Fernet, InvalidToken
from pydantic import ValidationError

from training_platform.common.changes import Change, report
from training_platform.contract.evaluation import secret_variable
from training_platform.db.tables import Secret
from training_platform.errors import FieldError, InvalidInputError, NotFoundError, field_errors_from_pydantic
from training_platform.secrets.schemas import SecretRead, SecretWrite
from training_platform.secrets.store import SecretStore
from training_platform.settings import MAKE_SECRET_KEY

NO_KEY = (
    "not set: the secrets store encrypts with it, so no secret can be stored or used without it. Make one with "
    f"`{MAKE_SECRET_KEY}`, set it in the server's environment and restart the server"
)


class SecretService:
    def __init__(self, store: SecretStore, key: str | None):
        self.store = store
        self._fernet = Fernet(key) if key else None  # the settings refuse a key that is not a Fernet key

    def put(self, name: str, value: str, user: str | None) -> SecretRead:
        """Store `value` under `name`, replacing the value a secret of that name had."""
        fernet = self._key()
        try:
            request = SecretWrite(name=name, value=value)
        except ValidationError as error:
            raise InvalidInputError(field_errors_from_pydantic(error)) from None
        ciphertext = fernet.encrypt(request.value.get_secret_value().encode()).decode()
        secret = self.store.put(Secret(id=uuid.uuid4().hex, name=request.name, ciphertext=ciphertext, created_by=user))
        report(Change("secret", secret.id, secret.name, "stored"))
        return _read(secret)

    def list_all(self) -> list[SecretRead]:
        return [_read(secret) for secret in self.store.list_all()]

    def delete(self, name: str) -> None:
        self._key()
        secret = self.store.delete(name)
        if secret is None:
            raise NotFoundError(f"no secret named '{name}'")
        report(Change("secret", secret.id, secret.name, "deleted"))

    def exists(self, name: str) -> bool:
        return self.store.get(name) is not None

    def reveal(self, name: str) -> str:
        """The value in clear, for the platform's own use (a run's API key): never for an answer."""
        fernet = self._key()
        secret = self.store.get(name)
        if secret is None:
            raise InvalidInputError([FieldError("secret", f"no secret named '{name}': store it with POST /secrets")])
        try:
            return fernet.decrypt(secret.ciphertext.encode()).decode()
        except InvalidToken:
            message = (
                f"secret {name} was encrypted with another PLATFORM_SECRET_KEY: store it again with POST /secrets, "
                "or restart the server with the key it was stored under"
            )
            raise InvalidInputError([FieldError("secret", message)]) from None

    def environment_for(self, names: list[str]) -> dict[str, str]:
        """The environment a run's process gets its secrets in: secret_variable(name) -> value."""
        return {secret_variable(name): self.reveal(name) for name in names}

    def _key(self) -> Fernet:
        if self._fernet is None:
            raise InvalidInputError([FieldError("PLATFORM_SECRET_KEY", NO_KEY)])
        return self._fernet


def _read(secret: Secret) -> SecretRead:
    return SecretRead(name=secret.name, created_at=secret.created_at, updated_at=secret.updated_at)
