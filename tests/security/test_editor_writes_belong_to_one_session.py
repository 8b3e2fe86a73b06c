"""What a session's file editor wrote belongs to that session. The terminal's undo of protected
paths that a command's leftover process made spares what the session's own editor wrote (that
change was rated and confirmed there); a second session in the same process (an editor's ACP
agent serving two, a test run) keeps a record of its own, and does not spare the first one's."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.jail.protected import ProtectedPaths
from openhands_tui.sdk.tool import ToolContext
from openhands_tui.tools.file_editor.tool import FileEditorAction, FileEditorTool


async def test_what_one_sessions_editor_wrote_is_spared_only_by_that_session(workspace: Path) -> None:
    mine, other = ToolContext(workspace, "root"), ToolContext(workspace, "root")
    assert mine.editor_writes is not other.editor_writes
    watched_here = ProtectedPaths(workspace, editor_writes=mine.editor_writes)
    watched_there = ProtectedPaths(workspace, editor_writes=other.editor_writes)
    before_here, before_there = watched_here.snapshot(), watched_there.snapshot()
    editor = FileEditorTool(mine)
    try:
        action = FileEditorAction(command="create", path="AGENTS.md", file_text="Use tabs.\n")
        editor.subject(action)
        assert not (await editor.run(action)).is_error
    finally:
        await editor.close()
    target = workspace / "AGENTS.md"
    assert mine.editor_writes.wrote_under(str(target))
    assert not other.editor_writes.wrote_under(str(target))
    assert watched_here.check(before_here, spare_editor=True) == []
    assert target.read_text() == "Use tabs.\n"
    assert watched_there.check(before_there, spare_editor=True) == ["AGENTS.md"]
    assert not target.exists()
