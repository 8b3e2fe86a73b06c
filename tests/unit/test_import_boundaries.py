"""The engine stays headless and the CLI stays light: checked in fresh interpreters."""

from __future__ import annotations

import ast
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tomllib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def _loaded_after(*modules: str) -> set[str]:
    code = "; ".join(f"import {m}" for m in modules) + "; import sys; print('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return {name.split(".")[0] for name in out.split()}


def test_engine_and_tools_load_neither_textual_nor_rich_nor_litellm() -> None:
    loaded = _loaded_after("openhands_tui.sdk", "openhands_tui.tools", "openhands_tui.tools.preset.default")
    assert "openhands_tui" in loaded
    assert not loaded & {"textual", "rich", "litellm"}


def test_cli_loads_neither_textual_nor_litellm() -> None:
    loaded = _loaded_after("openhands_tui.cli")
    assert "typer" in loaded
    assert not loaded & {"textual", "litellm", "openai"}


def test_export_loads_neither_textual_nor_rich_nor_litellm() -> None:
    loaded = _loaded_after(
        "openhands_tui.cli_export",
        "openhands_tui.export.collect",
        "openhands_tui.export.entries",
        "openhands_tui.export.model",
        "openhands_tui.export.markdown",
        "openhands_tui.export.html_page",
        "openhands_tui.export.json_export",
        "openhands_tui.export.redaction",
        "openhands_tui.export.output",
    )
    assert "openhands_tui" in loaded
    assert not loaded & {"textual", "rich", "litellm", "openai"}


def test_import_contracts_hold() -> None:
    """The layering and the absence of import cycles, as declared in pyproject.toml's
    [tool.importlinter] contracts (import-linter reads every import, including those inside
    functions and under TYPE_CHECKING)."""
    from importlinter.cli import lint_imports

    assert lint_imports(config_filename=str(REPO / "pyproject.toml"), no_cache=True) == 0


def _lint_a_copy_with(tmp_path: pathlib.Path, module: str, line: str) -> subprocess.CompletedProcess[str]:
    """lint-imports over a copy of the package in which `module` (a path inside it) ends with `line`."""
    copy = tmp_path / "openhands_tui"
    shutil.copytree(REPO / "openhands_tui", copy, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    with open(copy / module, "a") as handle:
        handle.write(f"\n{line}  # noqa: E402,F401\n")
    config = tmp_path / "pyproject.toml"
    config.write_text((REPO / "pyproject.toml").read_text())
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "from importlinter.cli import lint_imports; raise SystemExit(lint_imports(no_cache=True))",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )


def _broken(result: subprocess.CompletedProcess[str], contract: str) -> bool:
    """Whether lint-imports failed, and reported the contract whose name begins with `contract`
    broken (in its summary a name may wrap across lines)."""
    summary = " ".join(result.stdout.split())
    return result.returncode == 1 and re.search(re.escape(contract) + r"((?!KEPT).)*? BROKEN", summary) is not None


def test_the_contracts_would_catch_a_cycle(tmp_path: pathlib.Path) -> None:
    """The cycle contract is not vacuous: a copy of the package with one back-import fails it."""
    result = _lint_a_copy_with(tmp_path, "sdk/run/actions.py", "import openhands_tui.sdk.run.agent_run")
    assert _broken(result, "No import cycles"), result.stdout


SECURITY_INTERNALS = "Tools, executors, the jail and the MCP client never import security internals"
EXECUTORS = "Executors carry out what tools ask"
MODEL_CLIENT = "The app never calls the model client"
APP_EVENTS = "The app learns what the engine does from events"
EXPORT = "An export reads a stored session and renders text"


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        (
            "executors/local/shell_reset.py",
            "from openhands_tui.sdk.security.shell_state import RUNS_CODE_LATER",
            SECURITY_INTERNALS,
        ),
        ("tools/terminal/tool.py", "from openhands_tui.sdk.security import commands", SECURITY_INTERNALS),
        ("jail/jail.py", "from openhands_tui.sdk.security import commands", SECURITY_INTERNALS),
        ("mcp/hub.py", "import openhands_tui.sdk.security.mcp_arguments", SECURITY_INTERNALS),
        ("executors/local/files.py", "import openhands_tui.tools.file_editor.editor", EXECUTORS),
        ("tui/screens/settings.py", "from openhands_tui.sdk.llm.client import LLM", MODEL_CLIENT),
        ("tui/session_host.py", "from openhands_tui.sdk.llm.warmup import warm_up", MODEL_CLIENT),
        ("tui/app.py", "from openhands_tui.sdk.mcp_port import MCPToolSource", APP_EVENTS),
        ("tui/commands.py", "from openhands_tui.sdk.run.runtime import Runtime", APP_EVENTS),
        ("export/markdown.py", "import rich.markdown", EXPORT),
        ("export/collect.py", "from openhands_tui.sdk.run.bus import EventBus", EXPORT),
    ],
)
def test_the_contracts_would_catch_a_forbidden_import(
    tmp_path: pathlib.Path, module: str, line: str, contract: str
) -> None:
    """The layer contracts are not vacuous: a copy of the package with one such import fails.
    The tools, the executors, the jail and the MCP client see only sdk/security's public face
    (a module added to sdk/security later is internal too, unless the contract names it public;
    an executor never reaches back into the tools that use it); the app never
    builds or warms the model client (the launcher hands it what it needs), nor reads the
    engine's shared state or tool ports (what the engine does reaches it as events); an export
    renders text without running or drawing anything."""
    result = _lint_a_copy_with(tmp_path, module, line)
    assert _broken(result, contract), result.stdout


def test_the_public_face_of_security_names_modules_that_exist() -> None:
    """The contract's public modules are real ones (a renamed module must not leave a stale name,
    which import-linter, told not to mind unmatched names, would not report)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["name"].startswith(SECURITY_INTERNALS))
    security = REPO / "openhands_tui" / "sdk" / "security"
    public = [expression.split(" -> ")[1] for expression in contract["ignore_imports"]]
    assert public and all(name.startswith("openhands_tui.sdk.security.") for name in public)
    assert [name for name in public if not (security / f"{name.rsplit('.', 1)[1]}.py").is_file()] == []


def test_the_app_does_not_reach_into_the_engines_runtime() -> None:
    """What import-linter cannot see: the app reading `conversation.runtime` (the run's shared
    state: its MCP client, permissions, limits). What the engine does reaches it as events."""
    reads = []
    for path in sorted((REPO / "openhands_tui" / "tui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Attribute) and node.attr == "runtime":
                reads.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert reads == []
