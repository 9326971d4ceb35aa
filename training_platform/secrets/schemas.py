"""What the secrets API accepts and returns: a value goes in, only names and times come out."""

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"
MAX_VALUE_BYTES = 16 * 1024


class SecretWrite(BaseModel):
    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)

    name: str = Field(min_length=1, max_length=128, pattern=NAME_PATTERN)
    # A SecretStr: its repr and str are asterisks, so no log line or traceback can show it by accident.
    value: SecretStr = Field(min_length=1, description="Kept encrypted; no answer ever includes it.")

    @field_validator("value")
    @classmethod
    def _size(cls, value: SecretStr) -> SecretStr:
        if len(value.get_secret_value().encode()) > MAX_VALUE_BYTES:
            raise ValueError(f"a secret holds at most {MAX_VALUE_BYTES} bytes (UTF-8)")
        return value


class SecretRead(BaseModel):
    name: str
    created_at: datetime
    updated_at: datetime
