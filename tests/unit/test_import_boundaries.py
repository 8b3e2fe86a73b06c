"""The engine stays headless and the CLI stays light: checked in fresh interpreters."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

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


def test_import_contracts_hold() -> None:
    """The layering and the absence of import cycles, as declared in pyproject.toml's
    [tool.importlinter] contracts (import-linter reads every import, including those inside
    functions and under TYPE_CHECKING)."""
    from importlinter.cli import lint_imports

    assert lint_imports(config_filename=str(REPO / "pyproject.toml"), no_cache=True) == 0


def test_the_contracts_would_catch_a_cycle(tmp_path: pathlib.Path) -> None:
    """The cycle contract is not vacuous: a copy of the package with one back-import fails it."""
    copy = tmp_path / "openhands_tui"
    shutil.copytree(REPO / "openhands_tui", copy, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    with open(copy / "sdk" / "run/actions.py", "a") as handle:
        handle.write("\nimport openhands_tui.sdk.run.agent_run  # noqa: E402,F401\n")
    config = tmp_path / "pyproject.toml"
    config.write_text((REPO / "pyproject.toml").read_text())
    result = subprocess.run(
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
    assert result.returncode == 1, result.stdout
    assert "No import cycles" in result.stdout and "BROKEN" in result.stdout
