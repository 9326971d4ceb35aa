"""Text the server shows a person, born bilingual: a code with parameters, rendered from the English or the Chinese
catalogue (`common/catalogue.py`) when it is read, in the reader's language.

The UI sends its locale as `Accept-Language`, and so can any API client or the CLI; anything else reads English.
A text is stored as its code and parameters beside its English rendering (a job's events), so a later reader in
another language reads it in theirs. Words that are not the platform's own (a trainer's message, a library's
error, a path) travel inside a text as parameters, unchanged in every language.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from training_platform.common.catalogue import CATALOGUE

Language = Literal["en", "zh-CN"]
LANGUAGES: tuple[Language, ...] = ("en", "zh-CN")
ENGLISH: Language = "en"

JOIN = "joined"  # the code of texts made of parts, each a text of its own
LITERAL = "literal"  # the code of words that are not the platform's, shown as they are
SEPARATORS: dict[Language, str] = {"en": "; ", "zh-CN": "；"}


@dataclass(frozen=True)
class Text:
    code: str
    params: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, code: str, /, **params: Any) -> "Text":
        return cls(code, params)

    @classmethod
    def literal(cls, words: str) -> "Text":
        return cls(LITERAL, {"text": words})

    @classmethod
    def join(cls, *parts: "Text | None") -> "Text":
        """The parts that are there, one after another ("; " in English)."""
        kept = [part for part in parts if part is not None]
        return kept[0] if len(kept) == 1 else cls(JOIN, {"parts": [part.as_dict() for part in kept]})

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": self.params}

    @classmethod
    def from_dict(cls, value: Mapping[str, Any]) -> "Text":
        return cls(str(value["code"]), dict(value.get("params") or {}))

    def render(self, language: Language = ENGLISH) -> str:
        if self.code == LITERAL:
            return str(self.params.get("text", ""))
        if self.code == JOIN:
            return SEPARATORS[language].join(Text.from_dict(part).render(language) for part in self.params["parts"])
        entry = CATALOGUE.get(self.code)
        if entry is None:
            raise KeyError(f"no text for code {self.code!r}")
        return _format(entry.get(language) or entry[ENGLISH], self.params, language)


def translated(code: str, params: Mapping[str, Any], language: Language, english: str) -> str:
    """The code's text in `language`, or `english` where the catalogue has none (an error whose English is a
    library's own message, pydantic's)."""
    entry = CATALOGUE.get(code, {})
    template = entry.get(language) if language != ENGLISH else None
    return english if template is None else _format(template, params, language)


def _format(template, params: Mapping[str, Any], language: Language) -> str:
    """A parameter that is itself a text (a run's exit inside "stopped by user (…)") is rendered first."""
    values = {
        name: Text.from_dict(value).render(language) if isinstance(value, dict) and "code" in value else value
        for name, value in params.items()
    }
    return template(values) if callable(template) else template.format(**values)


def language_of(accept_language: str | None) -> Language:
    """The first language of an Accept-Language header that the platform speaks (quality values honoured); English
    when none is."""
    ranked = []
    for position, item in enumerate((accept_language or "").split(",")):
        tag, _, parameters = item.strip().partition(";")
        quality = 1.0
        for parameter in parameters.split(";"):
            name, _, value = parameter.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and quality > 0:
            ranked.append((-quality, position, tag.strip().lower()))
    for _, _, tag in sorted(ranked):
        if tag.startswith("zh"):
            return "zh-CN"
        if tag.startswith("en") or tag == "*":
            return ENGLISH
    return ENGLISH
