from enum import StrEnum


class CredentialSource(StrEnum):
    ADMIN_TOKEN = "admin-token"
    SESSION = "session"
    TOKEN = "token"

    def __str__(self) -> str:
        return str(self.value)
