"""Named implementations, registered once each, looked up by the names a schema uses (a reward's `extraction` and
`comparison`, evaluation's scorers): the way `engines/registry.py` keys engines, for things small enough to be
registered where they are defined.

A second registration under a name is refused, so two modules cannot silently replace each other's entry; a lookup
of an unknown name says which names there are.
"""

from collections.abc import Callable
from typing import Generic, TypeVar

Entry = TypeVar("Entry")


class UnknownNameError(LookupError):
    """A name no entry is registered under."""


class Registry(Generic[Entry]):
    def __init__(self, what: str):
        self.what = what  # "extraction method": how errors name the entries
        self._entries: dict[str, Entry] = {}

    def register(self, name: str) -> Callable[[Entry], Entry]:
        """A decorator: `@extractions.register("boxed")` over the function."""

        def add(entry: Entry) -> Entry:
            if name in self._entries:
                raise ValueError(f"a {self.what} named '{name}' is already registered ({self._entries[name]!r})")
            self._entries[name] = entry
            return entry

        return add

    def __getitem__(self, name: str) -> Entry:
        try:
            return self._entries[name]
        except KeyError:
            expected = ", ".join(self._entries)
            raise UnknownNameError(f"unknown {self.what} {name!r} (expected one of: {expected})") from None

    def names(self) -> tuple[str, ...]:
        return tuple(self._entries)
