from typing import Annotated

from fastapi import Depends, Request

from training_platform.platform import Platform


def get_platform(request: Request) -> Platform:
    return request.app.state.platform


PlatformDep = Annotated[Platform, Depends(get_platform)]
