from typing import Annotated

from fastapi import Depends, Request

from training_platform.common.text import Language, language_of
from training_platform.platform import Platform


def get_platform(request: Request) -> Platform:
    return request.app.state.platform


def request_language(request: Request) -> Language:
    """The language the caller reads (`Accept-Language`; the UI sends its locale): common/text.py."""
    return language_of(request.headers.get("accept-language"))


PlatformDep = Annotated[Platform, Depends(get_platform)]
LanguageDep = Annotated[Language, Depends(request_language)]
