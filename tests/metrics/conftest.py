"""Fixtures the metrics tests share."""

import asyncio
import threading

import pytest


@pytest.fixture
def server_loop(platform):
    """The platform's metrics service bound to an event loop running in a thread, as under the API server."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    platform.metrics.hub.bind(loop)
    yield loop
    asyncio.run_coroutine_threadsafe(platform.metrics.stop_following(), loop).result(30)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)
