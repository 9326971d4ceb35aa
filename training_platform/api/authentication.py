"""Who asks (step 3 of the access checks, api/security.py): the bearer token or the session cookie a request carries."""

from fastapi.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from training_platform.api.refusal import Refusal
from training_platform.auth.errors import UnauthenticatedError
from training_platform.auth.schemas import CredentialSource, Principal
from training_platform.auth.service import AuthService

SESSION_COOKIE = "tplat_session"


async def authenticate(auth: AuthService, connection: HTTPConnection) -> Principal:
    header = connection.headers.get("authorization")
    if header is not None:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Refusal(401, "the Authorization header must be 'Bearer <token>'", {"www-authenticate": "Bearer"})
        token, source = token.strip(), CredentialSource.TOKEN
    elif cookie := connection.cookies.get(SESSION_COOKIE):
        token, source = cookie, CredentialSource.SESSION
    else:
        raise Refusal(
            401,
            "authentication required: log in, or send 'Authorization: Bearer <token>'",
            {"www-authenticate": "Bearer"},
        )
    try:
        return await run_in_threadpool(auth.authenticate, token, source)
    except UnauthenticatedError as error:
        raise Refusal(401, str(error), {"www-authenticate": "Bearer"}) from None
