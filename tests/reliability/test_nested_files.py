"""Config, rules and MCP files built to break a parser: TOML or JSON nested thousands deep made
tomllib and json raise RecursionError, and a 5,000-digit number a ValueError — tracebacks at
start-up. Each is now the file's usual one-line problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.sdk.errors import SettingsError
from openhands_tui.sdk.mcp_config import read_mcp_file
from openhands_tui.sdk.security.permissions import _read_rules
from openhands_tui.sdk.settings import load_config

DEEP_TOML = "a = " + "[" * 10_000 + "]" * 10_000 + "\n"
DEEP_TABLES = "a = " + "{b = " * 2_000 + "1" + "}" * 2_000 + "\n"


@pytest.mark.parametrize("text", [DEEP_TOML, DEEP_TABLES], ids=["arrays", "inline tables"])
def test_a_config_or_rules_file_nested_too_deep_is_one_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / "file.toml"
    path.write_text(text)
    with pytest.raises(SettingsError) as config:
        load_config(path)
    assert str(config.value) == f"{path}: invalid TOML (nested too deeply)"
    with pytest.raises(SettingsError) as rules:
        _read_rules(path)
    assert str(rules.value) == f"{path}: cannot read permission rules (nested too deeply)"


@pytest.mark.parametrize(
    "content, problem",
    [
        (b"[" * 100_000 + b"]" * 100_000, "not valid JSON (nested too deeply)"),
        (
            b'{"mcpServers": {"a": {"command": "x", "timeout": ' + b"9" * 5_000 + b"}}}",
            "Exceeds the limit (4300 digits)",
        ),
        (b"\xff{}", "not UTF-8 text"),
    ],
    ids=["100000 deep", "5000 digits", "not UTF-8"],
)
def test_an_mcp_file_built_to_hurt_is_a_problem_not_a_crash(tmp_path: Path, content: bytes, problem: str) -> None:
    path = tmp_path / "mcp.json"
    path.write_bytes(content)
    servers, problems = read_mcp_file(path)
    assert servers == {} and len(problems) == 1
    assert problems[0].startswith(f"{path}: ") and problem in problems[0]
