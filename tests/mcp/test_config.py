"""Where servers come from (user file, trusted project file, strategies, microagents) and how
rules and the analyzer treat their tools; no server is started here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openhands_tui.sdk import LLM, Agent
from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.facts.subject import MCPAnnotations, MCPCall
from openhands_tui.sdk.mcp_config import parse_servers, session_servers, user_mcp_file
from openhands_tui.sdk.model import UnsupportedArgument
from openhands_tui.sdk.security import RuleAnalyzer
from openhands_tui.sdk.security.permissions import PermissionRule, PermissionSet, suggest_rule
from openhands_tui.sdk.security.trust import ProjectTrust


def test_the_shared_shape_and_openhands_lists_parse() -> None:
    servers, problems = parse_servers(
        {
            "mcpServers": {
                "fs": {"command": "npx", "args": ["-y", "server-fs"], "env": {"A": "1"}},
                "web": {"type": "http", "url": "https://x.test/mcp", "headers": {"Authorization": "Bearer t"}},
                "old": {"type": "sse", "url": "https://x.test/sse"},
                "both": {"command": "x", "url": "https://x.test"},
                "typo": {"comand": "x"},
            }
        },
        "mcp.json",
    )
    assert {name: s.transport for name, s in servers.items()} == {"fs": "stdio", "web": "http", "old": "sse"}
    assert problems == [
        "mcp.json: server 'both': give either `command` (a program over stdio) or `url` (HTTP/SSE), "
        "not both or neither",
        "mcp.json: server 'typo': comand: unknown setting",
    ]
    openhands, _ = parse_servers(
        {
            "stdio_servers": [{"name": "t", "command": "uvx", "args": ["mcp-server-time"]}],
            "sse_servers": ["http://h/sse"],
        },
        "microagent",
    )
    assert {name: s.transport for name, s in openhands.items()} == {"t": "stdio", "http://h/sse": "sse"}


def test_an_unusable_agent_mcp_config_fails_when_the_strategy_loads() -> None:
    with pytest.raises(UnsupportedArgument, match=r"Agent\(mcp_config=...\): server 'x': give either"):
        Agent(llm=LLM(model="openai/x"), mcp_config={"mcpServers": {"x": {"args": ["a"]}}})


def test_project_servers_start_only_once_trusted(workspace: Path) -> None:
    user_mcp_file().parent.mkdir(parents=True, exist_ok=True)
    user_mcp_file().write_text(json.dumps({"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}}))
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": {"evil": {"command": "sh", "args": ["-c", "x"]}}}))

    untrusted = session_servers(workspace)
    assert list(untrusted.servers) == ["time"]
    assert untrusted.trust_request.kind == "mcp"
    assert untrusted.trust_request.grants == ["server evil: sh -c x"]

    ProjectTrust().trust(untrusted.trust_request)
    assert sorted(session_servers(workspace).servers) == ["evil", "time"]
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": {"evil": {"command": "sh", "args": ["-c", "y"]}}}))
    assert list(session_servers(workspace).servers) == ["time"]  # changed content: asked again
    assert sorted(session_servers(workspace, trust_project=True).servers) == ["evil", "time"]


def test_a_broken_file_is_one_line_naming_it(workspace: Path) -> None:
    (workspace / ".mcp.json").write_text("{not json")
    loaded = session_servers(workspace)
    assert loaded.servers == {} and loaded.problems == [
        f"{workspace / '.mcp.json'}: not valid JSON (Expecting property name enclosed in double quotes at line 1)"
    ]


def _call(tool: str, **hints: bool) -> MCPCall:
    return MCPCall(server="git", tool=tool, arguments={"repo_path": "."}, annotations=MCPAnnotations(**hints))


def test_risk_follows_the_servers_annotations(workspace: Path) -> None:
    analyzer = RuleAnalyzer()
    assert analyzer.assess(_call("git_status", read_only=True), workspace).risk is Risk.LOW
    assert analyzer.assess(_call("git_reset", destructive=True), workspace).risk is Risk.HIGH
    # no read-only hint: asked (HIGH) until the user allows that tool
    assert analyzer.assess(_call("git_commit"), workspace).risk is Risk.HIGH


def test_rules_name_mcp_tools(workspace: Path) -> None:
    rules = PermissionSet(
        [
            PermissionRule(action="allow", mcp="mcp:git/*"),
            PermissionRule(action="deny", mcp="git/git_checkout"),
            PermissionRule(action="allow", mcp="git/git_reset"),
        ],
        workspace,
    )
    assert rules.decide(_call("git_commit"), Risk.MEDIUM).approved  # type: ignore[union-attr]
    unhinted = rules.decide(_call("git_commit"), Risk.HIGH)  # HIGH for want of a read-only hint: the glob allows
    assert unhinted is not None and unhinted.approved
    assert not rules.decide(_call("git_checkout"), Risk.MEDIUM).approved  # type: ignore[union-attr]
    reset = rules.decide(_call("git_reset", destructive=True), Risk.HIGH)
    assert reset is not None and reset.rule.mcp == "git/git_reset"
    glob = PermissionSet([PermissionRule(action="allow", mcp="git/*")], workspace)
    assert glob.decide(_call("x", destructive=True), Risk.HIGH) is None
    suggested = suggest_rule(_call("git_commit"), workspace)
    assert (
        suggested is not None
        and suggested.mcp == "git/git_commit"
        and suggested.describe() == "allow mcp:git/git_commit (exactly)"
    )


def test_an_editors_servers_become_ours() -> None:
    from acp.schema import AcpMcpServer, EnvVariable, HttpHeader, HttpMcpServer, McpServerStdio, SseMcpServer

    from openhands_tui.acp.mcp_servers import client_servers

    servers, problems = client_servers(
        [
            McpServerStdio(name="fs", command="npx", args=["-y", "fs"], env=[EnvVariable(name="ROOT", value="/w")]),
            HttpMcpServer(
                type="http", name="docs", url="https://d.test/mcp", headers=[HttpHeader(name="X", value="1")]
            ),
            SseMcpServer(type="sse", name="old", url="https://d.test/sse", headers=[]),
            AcpMcpServer(type="acp", name="inproc", server_id="s1"),
        ]
    )
    assert {name: (s.transport, s.describe()) for name, s in servers.items()} == {
        "fs": ("stdio", "npx -y fs"),
        "docs": ("http", "https://d.test/mcp (http)"),
        "old": ("sse", "https://d.test/sse (sse)"),
    }
    assert servers["fs"].env == {"ROOT": "/w"} and servers["docs"].headers == {"X": "1"}
    assert problems == ["MCP server 'inproc' from the editor: transport 'acp' is not supported here"]
