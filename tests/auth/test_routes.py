"""Every unsafe route has its access decided on purpose (api/access.py: UNSAFE_ROUTES), and nothing else is there."""

from training_platform.api.access import SAFE_METHODS, UNSAFE_ROUTES
from training_platform.api.app import API_PREFIX, create_app
from training_platform.api.routing import known_routes
from training_platform.settings import Settings


def test_every_unsafe_route_is_classified_and_every_entry_is_a_route(tmp_path):
    app = create_app(Settings(home=tmp_path))
    unsafe = {
        (method, route.path.removeprefix(API_PREFIX))
        for route in known_routes(app)
        for method in route.methods - SAFE_METHODS - {"WEBSOCKET"}
    }
    assert unsafe == set(UNSAFE_ROUTES), (
        f"unclassified: {sorted(unsafe - set(UNSAFE_ROUTES))}; gone: {sorted(set(UNSAFE_ROUTES) - unsafe)}"
    )


def test_json_routes_are_known_as_such(tmp_path):
    routes = {
        (tuple(sorted(r.methods)), r.path): r.takes_json for r in known_routes(create_app(Settings(home=tmp_path)))
    }
    assert routes[(("POST",), f"{API_PREFIX}/jobs")] is True
    assert routes[(("POST",), f"{API_PREFIX}/datasets/upload")] is False  # the body is the file itself
    assert routes[(("WEBSOCKET",), f"{API_PREFIX}/monitoring/{{job}}/live")] is False
