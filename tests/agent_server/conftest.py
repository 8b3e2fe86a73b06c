"""One real OpenHands agent-server (from PyPI, on a loopback port of our choosing) for the tests
of this folder in a worker: starting one takes seconds."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.agent_server_fixture import AgentServer, running_server


@pytest.fixture(scope="session")
def agent_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AgentServer]:
    with running_server(tmp_path_factory.mktemp("agent-server")) as server:
        if isinstance(server, str):
            pytest.skip(server)
        yield server
