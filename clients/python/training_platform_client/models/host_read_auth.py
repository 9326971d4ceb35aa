from enum import StrEnum


class HostReadAuth(StrEnum):
    KEY = "key"
    PASSWORD = "password"

    def __str__(self) -> str:
        return str(self.value)
