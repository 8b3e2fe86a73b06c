"""MCP servers' tools for our agents, on the official `mcp` SDK.

Importing this package registers the client with the engine (`sdk/mcp_port.py`), as
`openhands_tui.tools` registers the built-in tools; it does not import the `mcp` SDK itself
(about a second), which is loaded in a worker thread when the first server starts.
"""

from __future__ import annotations

from pathlib import Path

from openhands_tui.mcp.hub import MCPHub
from openhands_tui.sdk.mcp_port import MCPToolSource, use_mcp_client
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.sdk.security.trusted import TrustedFiles


def _new_hub(
    workspace: Path, sandbox: SandboxPolicy | None = None, trusted: TrustedFiles | None = None
) -> MCPToolSource:
    """The session's client; `sandbox` is the session's policy (servers run unconfined when it
    is off), `trusted` its trusted files."""
    return MCPHub(workspace, sandbox, trusted)


use_mcp_client(_new_hub)

__all__ = ["MCPHub"]
