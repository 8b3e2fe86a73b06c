"""The tool schemas the model reads: exact names, plain JSON schema, descriptions present."""

from __future__ import annotations

from pathlib import Path

import openhands_tui.tools  # noqa: F401
from openhands_tui.sdk.tool import ToolContext, resolve_tools
from openhands_tui.tools.preset.default import get_default_tools


def _schemas(workspace: Path) -> dict[str, dict]:
    tools = resolve_tools(get_default_tools(), ToolContext(workspace=workspace, agent_id="root"))
    return {t.schema["function"]["name"]: t.schema["function"]["parameters"] for t in tools}


def _walk(node: object):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def test_names_and_arguments_match_what_the_model_is_promised(workspace: Path) -> None:
    schemas = _schemas(workspace)
    assert list(schemas) == ["terminal", "jobs", "file_editor", "task_tracker", "web_fetch", "think", "finish"]
    assert set(schemas["terminal"]["properties"]) == {"command", "timeout", "background", "security_risk"}
    assert set(schemas["jobs"]["properties"]) == {"action", "job_id"}
    assert schemas["jobs"]["properties"]["action"]["enum"] == ["list", "read", "stop"]
    assert schemas["terminal"]["required"] == ["command"]
    assert set(schemas["file_editor"]["properties"]) == {
        "command",
        "path",
        "file_text",
        "old_str",
        "new_str",
        "insert_line",
        "view_range",
        "security_risk",
    }
    assert schemas["file_editor"]["properties"]["command"]["enum"] == [
        "view",
        "create",
        "str_replace",
        "insert",
        "undo_edit",
    ]
    assert schemas["terminal"]["properties"]["security_risk"]["enum"] == ["LOW", "MEDIUM", "HIGH"]
    assert set(schemas["task_tracker"]["properties"]) == {"command", "task_list"}
    assert set(schemas["web_fetch"]["properties"]) == {"url", "question"}
    assert schemas["web_fetch"]["required"] == ["url"]
    assert schemas["think"]["required"] == ["thought"] and schemas["finish"]["required"] == ["message"]


def test_schemas_are_plain_and_described(workspace: Path) -> None:
    for name, schema in _schemas(workspace).items():
        nodes = list(_walk(schema))
        assert not any("$ref" in n or "$defs" in n or "anyOf" in n for n in nodes), name
        assert all("title" not in n or not isinstance(n.get("title"), str) for n in nodes), name
        for prop, spec in schema["properties"].items():
            assert spec.get("description"), f"{name}.{prop} has no description for the model"
    items = _schemas(workspace)["task_tracker"]["properties"]["task_list"]["items"]
    assert items["properties"]["status"]["enum"] == ["todo", "in_progress", "done"]
