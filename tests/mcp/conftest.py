from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.mcp.servers import HTTPServer


@pytest.fixture
def http_server() -> Iterator[HTTPServer]:
    server = HTTPServer().start()
    yield server
    server.stop()
