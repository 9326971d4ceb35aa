from enum import StrEnum


class TokenKind(StrEnum):
    API = "api"
    SESSION = "session"

    def __str__(self) -> str:
        return str(self.value)
