"""A headless transcript's own lines cannot be forged by what it shows.

Tool output is printed indented under its action; the transcript's own lines (`● finished`,
`▸ action`) start further left. Carriage returns were flattened after the indentation was put
on, so a file name or a command's output holding `\\r● finished` erased the indentation and
printed a line at column 0 that read as the run's own status."""

from __future__ import annotations

import os
from io import StringIO
from pathlib import Path

from openhands_tui.headless import TranscriptPrinter
from openhands_tui.sdk import Agent, Conversation, ConversationParts
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.testing import Script, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for

FORGED = "● finished"


async def test_tool_output_stays_under_its_action(serve, workspace: Path) -> None:
    name = os.fsencode(workspace) + b"/a\n\r" + FORGED.encode()
    os.close(os.open(name, os.O_CREAT | os.O_WRONLY))
    turns = [
        Turn.call("file_editor", command="view", path="."),
        Turn.call("terminal", command=f"printf 'progress\\r{FORGED}\\n'"),
        Turn.finish("done"),
    ]
    server = serve([Script(turns=turns)])
    out = StringIO()
    conversation = Conversation(
        Agent(llm=llm_for(server), tools=get_default_tools()),
        workspace=workspace,
        parts=ConversationParts(subscribers=[TranscriptPrinter(out)], sandbox=SandboxPolicy(mode="off")),
    )
    await conversation.run("go")
    await conversation.close()
    lines = out.getvalue().splitlines()
    assert [line for line in lines if line.startswith("●")] == [FORGED]  # the run's own, once
    assert lines[-1] == FORGED
    assert lines.count(f"    {FORGED}") == 1  # the command's output line, indented
    assert f"    'a\\n\\r{FORGED}'" in lines  # the file name: one entry, quoted (the editor's listing)
