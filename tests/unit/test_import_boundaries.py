"""The engine stays headless and the CLI stays light: checked in fresh interpreters."""

from __future__ import annotations

import subprocess
import sys

import pytest


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


@pytest.mark.parametrize("package", ["openhands_tui/sdk", "openhands_tui/tools"])
def test_engine_sources_never_import_ui_libraries(package: str) -> None:
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2] / package
    pattern = re.compile(r"^\s*(from|import)\s+(textual|rich|openhands_tui\.tui|openhands_tui\.cli)\b", re.M)
    offenders = [str(p) for p in root.rglob("*.py") if pattern.search(p.read_text())]
    assert offenders == []


def test_sdk_does_not_import_tools_or_cli() -> None:
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2] / "openhands_tui" / "sdk"
    pattern = re.compile(r"^\s*(from|import)\s+openhands_tui\.(tools|tui|cli|headless|launch)\b", re.M)
    assert [str(p) for p in root.rglob("*.py") if pattern.search(p.read_text())] == []
