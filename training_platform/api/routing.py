"""The app's routes as the access checks need them, and the one a request reaches."""

import re
from dataclasses import dataclass

from fastapi import FastAPI
from fastapi.routing import APIRoute, APIWebSocketRoute, iter_route_contexts
from starlette.routing import WebSocketRoute, compile_path


@dataclass(frozen=True)
class KnownRoute:
    """A route of the app as the checks need it: its path template, methods, and whether it reads a JSON body."""

    path: str
    methods: frozenset[str]
    pattern: re.Pattern[str]
    takes_json: bool


def known_routes(app: FastAPI) -> list[KnownRoute]:
    """Every route, those of included routers too (FastAPI's own walk, the one its OpenAPI document is made from)."""
    routes = []
    for context in iter_route_contexts(app.routes):
        route, path = context.original_route, context.path
        if path is None:
            continue
        websocket = isinstance(route, APIWebSocketRoute | WebSocketRoute)
        methods = frozenset({"WEBSOCKET"}) if websocket else frozenset(context.methods or ())
        takes_json = isinstance(route, APIRoute) and route.body_field is not None
        routes.append(KnownRoute(path, methods, compile_path(path)[0], takes_json))
    return routes


def match_route(routes: list[KnownRoute], method: str, path: str) -> tuple[KnownRoute | None, dict[str, str]]:
    for route in routes:
        if method in route.methods and (found := route.pattern.match(path)):
            return route, found.groupdict()
    return None, {}
